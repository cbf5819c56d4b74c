#!/usr/bin/env bash
# Builds SoundStage's documentation (the DocC catalog in Sources/SoundStage/SoundStage.docc
# and every public symbol's doc comment, from every module `import SoundStage` re-exports) in
# one archive, offline, treating every warning as an error, and checks that documentation
# coverage is 100 % of the public symbols: it fails naming each one without documentation.
#
#   scripts/docs.sh            build into .build/docs/SoundStage.doccarchive and check
#   scripts/docs.sh --preview  then serve it (`docc preview`, a local web server; Ctrl-C ends it)
#
# The symbols come from swift-symbolgraph-extract, told to take in the re-exported modules
# (swift-docc-plugin's extraction leaves them out: the archive would hold the catalog and no
# symbol), and the archive from `docc convert`. scripts/test.sh --full runs it.
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
swift build --target SoundStage >"$log" 2>&1 || { cat "$log"; echo "==> documentation: the build failed" >&2; exit 1; }
bin=$(swift build --show-bin-path)
graphs=$out/symbol-graphs
rm -rf "$graphs"
mkdir -p "$graphs"
# The library's modules, re-exported by SoundStage (Sources/SoundStage/SoundStage.swift).
modules=$(sed -n 's/^@_exported import \(SoundStage[A-Za-z]*\)$/\1/p' Sources/SoundStage/SoundStage.swift | paste -sd, -)
includes=(-I "$bin/Modules")
for c in Sources/C*; do
    includes+=(-I "$c")
    [[ -d $c/include ]] && includes+=(-I "$c/include")
done
# The C targets' module maps, which SwiftPM writes into the build folder.
for map in "$bin"/C*.build/module.modulemap; do includes+=(-I "$(dirname "$map")"); done
# The system libraries' headers, where their module maps' shims find them (Package.swift's pkgConfig).
for dir in $(sed -n 's/.*pkgConfig: "\([^"]*\)".*/\1/p' Package.swift | xargs pkg-config --cflags-only-I | tr ' ' '\n' | sed -n 's/^-I//p'); do
    includes+=(-I "$dir")
done
if ! swift-symbolgraph-extract -module-name SoundStage -target "$(swift -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)["target"]["triple"])')" \
    "${includes[@]}" -minimum-access-level public -skip-synthesized-members -output-dir "$graphs" \
    -experimental-allowed-reexported-modules="$modules" >>"$log" 2>&1; then
    cat "$log"
    echo "==> documentation: the symbol graph could not be extracted" >&2
    exit 1
fi
# --experimental-documentation-coverage writes documentation-coverage.json into the archive.
if ! docc convert Sources/SoundStage/SoundStage.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name SoundStage --fallback-bundle-identifier SoundStage \
    --output-path "$archive" --warnings-as-errors --experimental-documentation-coverage \
    --coverage-summary-level brief --enable-inherited-docs >>"$log" 2>&1; then
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
    echo "==> serving the documentation (Ctrl-C ends it; or open $archive with Xcode)"
    exec docc preview Sources/SoundStage/SoundStage.docc --additional-symbol-graph-dir "$graphs" \
        --fallback-display-name SoundStage --fallback-bundle-identifier SoundStage --output-path "$out/preview"
fi
