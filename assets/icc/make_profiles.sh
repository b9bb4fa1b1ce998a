#!/usr/bin/env bash
# Rebuild printdeck's CMYK output profiles from free FOGRA39 characterization data.
#
# Needs Debian's (or Ubuntu's) `argyll` (ArgyllCMS colprof) and `icc-profiles-free`
# (FOGRA39L.ti3, zlib licence, by Kai-Uwe Behrmann):
#     apt-get install argyll icc-profiles-free
#     bash assets/icc/make_profiles.sh
# Made with ArgyllCMS 2.3.1 (Debian bookworm 2.3.1+repack-1.1+b1) and icc-profiles-free
# 2.0.1+dfsg-1.1 (colprof results can differ in the last bits from run to run).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
ti3="${FOGRA39_TI3:-/usr/share/color/icc/FOGRA39L.ti3}"
srgb="${SRGB_ICC:-/usr/share/color/icc/sRGB.icc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for tac in 240 260 280 300 320; do
  name="printdeck-fogra39-tac${tac}"
  cp "$ti3" "$work/$name.ti3"
  # -qm medium quality tables; -kr ramp black generation (GCR); -l total ink limit (%);
  # -S sRGB: perceptual and saturation tables gamut-mapped from sRGB (what printdeck sends);
  # -cmt -dpp: viewed on a typical monitor, seen as a practical reflection print; -nc: no .ti3 copy inside.
  colprof -qm -kr -l"$tac" -nc -S "$srgb" -cmt -dpp \
    -A "printdeck" -M "FOGRA39 (ISO 12647-2:2004/Amd 1, coated paper), ${tac}% total ink" \
    -D "printdeck FOGRA39 coated, total ink ${tac}%" \
    -C "Zlib licence. Characterization data FOGRA39L (c) Kai-Uwe Behrmann, icc-profiles-free; profile made with ArgyllCMS colprof by printdeck" \
    "$work/$name"
  cp "$work/$name.icc" "$here/$name.icc"
done
