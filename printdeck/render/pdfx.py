"""Press files: a finished ReportLab PDF made CMYK PDF/X, and die-line layers (pikepdf).

:func:`finish_pdf` rewrites the file ReportLab wrote, in place:

- **CMYK** (``job.cmyk``): every DeviceRGB colour operator (``rg``/``RG``, and
  ``sc``/``scn`` after a DeviceRGB ``cs``) becomes ``k``/``K`` through the same LittleCMS
  transform as the pictures (:func:`printdeck.artwork.cmyk_of_rgb`: neutral greys on the
  black plate alone, printdeck's ink black at 100 % K, but a page's large black areas rich
  black: :mod:`printdeck.render.rich_black`); every DeviceRGB image is converted
  (:func:`printdeck.artwork.image_to_cmyk`), a JPEG staying a JPEG.
- **PDF/X** (with CMYK): the OutputIntent (``GTS_PDFX``, the bundled profile embedded as
  ``DestOutputProfile``), ``GTS_PDFXVersion`` and ``Trapped`` in the Info dictionary and
  in XMP metadata (ISO 15930-4 for X-1a:2003, ISO 15930-7 for X-4), a TrimBox and BleedBox
  on every page (a sheet's are its MediaBox: the sheet is what the printer receives; a
  single card's are its cut and bleed squares), PDF 1.6 for X-4 and 1.4 for X-1a. X-1a
  refuses any transparency left (a soft mask, a constant alpha, a blend mode).
- **Die line** (``job.die_line``): the pages mark their die lines as optional content
  ``/OC /DieLine BDC ... EMC`` (:mod:`printdeck.render.sheet`); here they get their layer,
  an optional-content group named "Die line (CutContour)", on by default.

Dates and IDs are fixed (ReportLab's invariant date, qpdf's deterministic ID), so the
same theme and seed still give the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pikepdf
from pikepdf import Array, Dictionary, Name, Operator, String
from PIL import Image

from printdeck.artwork import (
    OUTPUT_CONDITION,
    OUTPUT_CONDITION_TEXT,
    cmyk_of_rgb,
    cmyk_profile_bytes,
    image_to_cmyk,
    total_ink,
)
from printdeck.choices import PdfX
from printdeck.errors import key_error
from printdeck.render.print_job import PrintJob
from printdeck.render.rich_black import enrich, form_scales, inherits_fill
from printdeck.render.style import DIE_LINE_PROPERTY
from printdeck.render.subset_tags import distinct_subset_tags

DIE_LINE_LAYER = "Die line (CutContour)"
"""The die line layer's name, as viewers and RIPs show it."""
FIXED_DATE = "2000-01-01T00:00:00+00:00"
"""ReportLab's invariant document date, written into the XMP too."""
JPEG_QUALITY = 92
_VERSION = {PdfX.X4: "PDF/X-4", PdfX.X1A: "PDF/X-1:2003"}
"""``GTS_PDFXVersion`` by standard: ISO 15930-4 names the PDF/X-1 version (``PDF/X-1:2003``)
and gives the conformance level (:data:`_CONFORMANCE`) a key of its own."""
_CONFORMANCE = {PdfX.X1A: "PDF/X-1a:2003"}
"""``GTS_PDFXConformance`` where the standard has one (X-1a; X-4 has none)."""


def finish_pdf(path: Path, job: PrintJob) -> None:
    """Make the PDF at ``path`` CMYK PDF/X and/or give its die lines a layer, in place.

    Does nothing unless ``job.cmyk`` or ``job.die_line``.

    Raises:
        PrintdeckError: A PDF/X-1a would keep transparency (names ``paper.pdfx``).
    """
    if not (job.cmyk or job.die_line):
        return
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        if job.cmyk:
            _convert_colours(pdf, job.ink_limit)
            if job.pdfx == PdfX.X1A:
                _refuse_transparency(pdf)
        if job.die_line:
            _die_line_layer(pdf)
        distinct_subset_tags(pdf)  # ISO 32000-1 9.6.4, which a press's preflight checks
        _boxes(pdf)
        version = "1.4"
        if job.cmyk:
            _pdfx_structure(pdf, job, digest)
            version = "1.6" if job.pdfx == PdfX.X4 else "1.4"
        elif job.die_line:
            version = "1.5"  # optional content
        pdf.save(
            path,
            deterministic_id=True,
            force_version=version,
            object_stream_mode=pikepdf.ObjectStreamMode.disable,
            compress_streams=True,
        )


def _convert_colours(pdf: pikepdf.Pdf, ink_limit: int) -> None:
    """Every DeviceRGB colour operator and image made CMYK."""
    scales = form_scales(pdf)  # before any stream is rewritten: a form's size on its pages
    inherit: dict[tuple[int, int], bool] = {}  # each XObject's inherits_fill, read once
    for page in pdf.pages:
        page.contents_coalesce()
        contents = page.obj.Contents
        assert isinstance(contents, pikepdf.Stream)
        _rewrite(contents, ink_limit, 1.0, page.resources, inherit)
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/ShadingType") is not None:
            _shading_to_cmyk(obj, ink_limit)
        if not isinstance(obj, pikepdf.Stream):
            continue
        subtype = obj.get("/Subtype")
        if subtype == Name.Form:
            _rewrite(obj, ink_limit, scales.get(obj.objgen), obj.get("/Resources"), inherit)
        elif subtype == Name.Image and obj.get("/ColorSpace") == Name.DeviceRGB:
            _image_to_cmyk(obj, ink_limit)


def _rewrite(
    stream: pikepdf.Stream, ink_limit: int, scale: float | None, resources: Any, inherit: dict[tuple[int, int], bool]
) -> None:
    """One content stream's RGB colour operators made CMYK (other operators untouched); black
    that only fills large areas made rich black (:func:`~.rich_black.enrich`) where the
    stream's ``scale`` on the page is known (1 for a page; None for a form drawn only from
    another form). ``resources``: the stream's (its XObjects tell which forms drawn in
    black paint in it, :func:`~.rich_black.inherits_fill`, kept in ``inherit`` by object)."""
    ops = pikepdf.parse_content_stream(stream)
    out: list[Any] = []
    rgb_space = {"fill": False, "stroke": False}
    changed = False
    for instruction in ops:
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            out.append(instruction)
            continue
        operands, operator = instruction.operands, instruction.operator
        name = str(operator)
        if name in ("cs", "CS"):
            rgb_space["fill" if name == "cs" else "stroke"] = operands[0] == Name.DeviceRGB
            if operands[0] == Name.DeviceRGB:
                out.append(([Name.DeviceCMYK], operator))
                changed = True
                continue
        setter = name in ("rg", "RG")
        after_cs = name in ("sc", "scn", "SC", "SCN") and rgb_space["fill" if name.islower() else "stroke"]
        if (setter or after_cs) and len(operands) == 3:
            red, green, blue = (float(v) for v in operands)
            cmyk = cmyk_of_rgb((red, green, blue), ink_limit)
            new_op = ("k" if name.islower() else "K") if setter else name
            out.append(([*cmyk], Operator(new_op)))
            changed = True
            continue
        out.append((list(operands), operator))
    xobjects = resources.get("/XObject") if isinstance(resources, pikepdf.Dictionary) else None

    def inherits(name: str) -> bool:
        drawn = xobjects.get(name) if isinstance(xobjects, pikepdf.Dictionary) else None
        if not isinstance(drawn, pikepdf.Stream):
            return True
        if drawn.objgen not in inherit:
            inherit[drawn.objgen] = inherits_fill(drawn)
        return inherit[drawn.objgen]

    if scale is not None and enrich(out, ink_limit, scale, inherits):
        changed = True
    if changed:
        stream.write(pikepdf.unparse_content_stream(out))


def _shading_to_cmyk(shading: pikepdf.Dictionary, ink_limit: int) -> None:
    """A DeviceRGB axial or radial shading (an SVG's gradient, as ReportLab writes it:
    exponential functions, alone or stitched) made DeviceCMYK, each stop's colour through
    the same transform as the colour operators; the gradient is then interpolated in CMYK."""
    if shading.get("/ColorSpace") != Name.DeviceRGB:
        return
    function = shading.get("/Function")
    parts = function.get("/Functions") if isinstance(function, pikepdf.Dictionary) else None
    for part in [function] if parts is None else list(parts):
        if not isinstance(part, pikepdf.Dictionary) or int(part.get("/FunctionType", -1)) != 2:
            raise ValueError(f"a shading function printdeck cannot convert to CMYK: {part!r}")
        for end in ("/C0", "/C1"):
            red, green, blue = (float(v) for v in part.get(end, Array([0, 0, 0]) if end == "/C0" else Array([1, 1, 1])))
            part[end] = Array(list(cmyk_of_rgb((red, green, blue), ink_limit)))
    shading.ColorSpace = Name.DeviceCMYK


def _image_to_cmyk(image: pikepdf.Stream, ink_limit: int) -> None:
    """A DeviceRGB image XObject rewritten as DeviceCMYK (a JPEG stays a JPEG)."""
    jpeg = image.get("/Filter") in (Name.DCTDecode, Array([Name.DCTDecode]))
    pixels = pikepdf.PdfImage(image).as_pil_image().convert("RGB")
    cmyk = image_to_cmyk(pixels, ink_limit)
    encoded = _jpeg_within(cmyk, ink_limit) if jpeg else None
    if encoded is not None:
        image.write(encoded, filter=Name.DCTDecode)
        image.Decode = Array([1, 0] * 4)  # Pillow writes Adobe (inverted) CMYK JPEGs
    else:  # lossless: a JPEG that went over the ink limit is kept exact instead
        image.write(zlib.compress(cmyk.tobytes(), 6), filter=Name.FlateDecode)
        if "/Decode" in image:
            del image.Decode
    if "/DecodeParms" in image:
        del image.DecodeParms
    image.ColorSpace = Name.DeviceCMYK
    image.BitsPerComponent = 8


JPEG_INK_MARGIN = 8
"""Percent of total ink a picture's darkest pixels are brought under the limit before JPEG
compression: its error at sharp edges raised the total up to 7 points over the limit."""


def _jpeg_within(cmyk: Image.Image, ink_limit: int) -> bytes | None:
    """``cmyk`` as a JPEG whose every pixel, decoded, stays within ``ink_limit`` percent of
    total ink (a print shop's preflight reads the pixels, not the profile): the pixels over
    ``ink_limit -`` :data:`JPEG_INK_MARGIN` first take less cyan, magenta and yellow (black
    kept), then the JPEG is decoded and checked. None when it still goes over."""
    pixels = np.asarray(cmyk, dtype=np.float64)
    room = (ink_limit - JPEG_INK_MARGIN) * 2.55 - pixels[..., 3]
    colour = pixels[..., :3].sum(axis=2)
    scale = np.where(colour > room, np.clip(room, 0.0, None) / np.maximum(colour, 1e-9), 1.0)
    pixels[..., :3] *= scale[..., None]
    clamped = Image.fromarray(np.round(pixels).astype(np.uint8), "CMYK")
    data = io.BytesIO()
    clamped.save(data, "JPEG", quality=JPEG_QUALITY, subsampling=0, optimize=True)
    with Image.open(io.BytesIO(data.getvalue())) as decoded:
        within = float(total_ink(decoded.convert("CMYK")).max()) <= ink_limit
    return data.getvalue() if within else None


def _refuse_transparency(pdf: pikepdf.Pdf) -> None:
    """PDF/X-1a allows no transparency: refuse soft masks, constant alpha and blend modes,
    in any object and in the graphics states a page's or a form's resources hold directly
    (ReportLab writes a form's, an SVG's opacity, there)."""
    states: list[pikepdf.Object] = []
    for holder in [*(page.obj for page in pdf.pages), *pdf.objects]:
        resources = holder.get("/Resources") if isinstance(holder, (pikepdf.Dictionary, pikepdf.Stream)) else None
        found = resources.get("/ExtGState") if isinstance(resources, pikepdf.Dictionary) else None
        if isinstance(found, pikepdf.Dictionary):
            states.extend(found.values())
    for obj in [*pdf.objects, *states]:
        if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
            continue
        smask = obj.get("/SMask")
        alpha = [float(obj.get(key, 1.0)) for key in ("/CA", "/ca")]
        blend = obj.get("/BM")
        if (smask is not None and smask != Name("/None")) or min(alpha) < 1.0 or blend not in (None, Name.Normal):
            raise key_error(
                "paper.pdfx",
                "the deck keeps transparency (a picture with a soft mask or a translucent "
                "colour) that PDF/X-1a cannot hold; use paper.pdfx: x-4",
            )


def _die_line_layer(pdf: pikepdf.Pdf) -> None:
    """The die line's optional-content group, named in each page that marks it."""
    group = pdf.make_indirect(Dictionary(Type=Name.OCG, Name=String(DIE_LINE_LAYER)))
    pdf.Root.OCProperties = Dictionary(
        OCGs=Array([group]),
        D=Dictionary(Name=String("printdeck"), Order=Array([group]), ON=Array([group]), OFF=Array()),
    )
    marker = f"/OC /{DIE_LINE_PROPERTY} BDC".encode()
    for page in pdf.pages:
        page.contents_coalesce()
        if marker not in page.obj.Contents.read_bytes():
            continue
        resources = page.obj.Resources
        properties = resources.get("/Properties", Dictionary())
        properties[f"/{DIE_LINE_PROPERTY}"] = group
        resources.Properties = properties


def _boxes(pdf: pikepdf.Pdf) -> None:
    """A TrimBox and a BleedBox on every page: the MediaBox where the page has none."""
    for page in pdf.pages:
        media = page.obj.MediaBox
        if "/TrimBox" not in page.obj:
            page.obj.TrimBox = Array(list(media))
        if "/BleedBox" not in page.obj:
            page.obj.BleedBox = Array(list(media))


def _pdfx_structure(pdf: pikepdf.Pdf, job: PrintJob, digest: str) -> None:
    """OutputIntent, Info keys and XMP metadata of a PDF/X file."""
    profile = pdf.make_stream(cmyk_profile_bytes(job.ink_limit))
    profile.N = 4
    condition = OUTPUT_CONDITION_TEXT.format(limit=job.ink_limit)
    pdf.Root.OutputIntents = Array(
        [
            Dictionary(
                Type=Name.OutputIntent,
                S=Name.GTS_PDFX,
                OutputConditionIdentifier=String(OUTPUT_CONDITION),
                OutputCondition=String(condition),
                RegistryName=String("http://www.color.org"),
                Info=String(condition),
                DestOutputProfile=profile,
            )
        ]
    )
    info = pdf.trailer.Info
    info.Trapped = Name("/False")
    info.GTS_PDFXVersion = String(_VERSION[job.pdfx])
    if job.pdfx in _CONFORMANCE:
        info.GTS_PDFXConformance = String(_CONFORMANCE[job.pdfx])
    info.Producer = String(PRODUCER)  # the Info keys and the XMP say the same (preflight checks they agree)
    title = str(info.get("/Title", job.title))
    said = {key: str(info.get(f"/{key}", "")) for key in ("Author", "Subject", "Keywords")}
    xmp = _xmp(job, title, digest, said)
    pdf.Root.Metadata = pdf.make_stream(xmp.encode("utf-8"), Type=Name.Metadata, Subtype=Name.XML)


PRODUCER = "printdeck (ReportLab, pikepdf)"
"""The file's producer, in its Info dictionary and its XMP alike."""


def _xmp(job: PrintJob, title: str, digest: str, said: dict[str, str]) -> str:
    """The XMP packet: title, dates, document IDs, Trapped, the PDF/X version, and the Info
    dictionary's ``said`` Author, Subject and Keywords, as it has them."""
    author, subject = said.get("Author", ""), said.get("Subject", "")
    version = _VERSION[job.pdfx]
    pdfx_key = (
        f"<pdfx:GTS_PDFXVersion>{version}</pdfx:GTS_PDFXVersion>"
        f"<pdfx:GTS_PDFXConformance>{_CONFORMANCE[job.pdfx]}</pdfx:GTS_PDFXConformance>"
        if job.pdfx in _CONFORMANCE
        else f"<pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>"
    )
    uid = f"uuid:{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" '
        'xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/" '
        'xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">'
        f'<dc:format>application/pdf</dc:format><dc:title><rdf:Alt><rdf:li xml:lang="x-default">{_esc(title)}'
        f"</rdf:li></rdf:Alt></dc:title><dc:creator><rdf:Seq><rdf:li>{_esc(author)}</rdf:li></rdf:Seq></dc:creator>"
        f'<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{_esc(subject)}</rdf:li></rdf:Alt></dc:description>'
        f"<xmp:CreateDate>{FIXED_DATE}</xmp:CreateDate><xmp:ModifyDate>{FIXED_DATE}</xmp:ModifyDate>"
        f"<xmp:MetadataDate>{FIXED_DATE}</xmp:MetadataDate><xmp:CreatorTool>printdeck</xmp:CreatorTool>"
        f"<pdf:Producer>{PRODUCER}</pdf:Producer><pdf:Keywords>{_esc(said.get('Keywords', ''))}</pdf:Keywords>"
        "<pdf:Trapped>False</pdf:Trapped>"
        f"<xmpMM:DocumentID>{uid}</xmpMM:DocumentID><xmpMM:InstanceID>{uid}</xmpMM:InstanceID>"
        f"<xmpMM:VersionID>1</xmpMM:VersionID><xmpMM:RenditionClass>default</xmpMM:RenditionClass>"
        f"{pdfx_key}</rdf:Description></rdf:RDF></x:xmpmeta>\n"
        '<?xpacket end="w"?>'
    )


def _esc(text: str) -> str:
    """Text escaped for XML."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
