#!/usr/bin/env bash
# Builds SoundStage's documentation (the DocC catalog in Sources/SoundStage/SoundStage.docc
# and every public symbol's doc comment) with swift-docc-plugin, offline, treating every
# warning as an error, and checks that documentation coverage is 100 % of the SoundStage
# module's public symbols: it fails naming each one without documentation.
#
#   scripts/docs.sh            build into .build/docs/SoundStage.doccarchive and check
#   scripts/docs.sh --preview  then say how to read it
#
# scripts/test.sh --full runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_swift
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}"

out=.build/docs
archive=$out/SoundStage.doccarchive
rm -rf "$archive"
mkdir -p "$out"
log=$out/generate.log
# --experimental-documentation-coverage writes documentation-coverage.json into the archive.
if ! swift package --allow-writing-to-directory "$out" generate-documentation --target SoundStage \
    --output-path "$archive" --warnings-as-errors --experimental-documentation-coverage \
    --coverage-summary-level brief --experimental-skip-synthesized-symbols --enable-inherited-docs >"$log" 2>&1; then
    cat "$log"
    echo "==> documentation: docc failed (warnings are errors)" >&2
    exit 1
fi
if grep -E "warning:" "$log"; then
    echo "==> documentation: warnings above" >&2
    exit 1
fi
python3 - "$archive/documentation-coverage.json" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))
# One entry per page; a symbol's entry says whether its doc comment gave it an abstract.
symbols = [e for e in entries if e.get("kind", {}).get("isSymbol")]
missing = [e for e in symbols if not e.get("hasAbstract")]
total = len(symbols)
print(f"documentation coverage: {100.0 * (total - len(missing)) / max(total, 1):.1f} % of {total} public symbols")
for e in missing:
    path = e.get("referencePath", "").replace("doc://SoundStage/documentation/", "")
    print(f"  undocumented: {path} ({e['kind'].get('name')})")
sys.exit(0 if total > 0 and not missing else 1)
PY
if [[ ${1:-} == --preview ]]; then
    echo "==> open $archive with Xcode, or: swift package --disable-sandbox preview-documentation --target SoundStage"
fi
