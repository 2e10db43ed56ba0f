#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ and runs them.
#
#   Fuzz/run.sh TARGET SECONDS   fuzz one target (see `Fuzz/run.sh list`) for SECONDS
#   Fuzz/run.sh all SECONDS      fuzz every target for SECONDS each
#   Fuzz/run.sh replay           run every saved input (Fuzz/corpus, Fuzz/crashes) once per target
#   Fuzz/run.sh ci               replay, then fuzz every target for FUZZ_CI_SECONDS (default 6) each
#
# FUZZ_RUNS=N stops each target after N executions if that comes before SECONDS (for the
# executions-per-parser figures of the README). FUZZ_TIMEOUT=S (default 10) is the wall-clock
# seconds one input may take before it counts as a hang: raise it when the fuzzer runs at a low
# priority on a busy machine, where a starved process would otherwise report a timeout that
# replaying the input does not reproduce.
#
# Seeds are copied at run time into a temporary folder: the project's fixtures, the saved corpus
# Fuzz/corpus/TARGET, and the conformance suites and Core Data files of ../shared/corpus when
# present. New inputs found stay in that folder (printed at the end); a crash, trap, leak, timeout
# or memory blow-up is copied to Fuzz/crashes/TARGET/ and makes the script fail.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus=../shared/corpus
binary=Fuzz/.build/release/FerryFuzz
targets=(csv json xml-plist binary-plist gzip xcode-model keyed-archive predicate mapping store)

build() {
    # The harness imports modules it reaches only through the Ferry product, so SwiftPM does not
    # rebuild it when their layout changes: compiled against stale layouts it would corrupt memory.
    touch Fuzz/Sources/FerryFuzz/*.swift
    if ! swift build --package-path Fuzz -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library \
        > "$work/build.log" 2>&1; then
        grep -v "ld.gold: warning" "$work/build.log" | tail -30 >&2
        echo "FerryFuzz did not build" >&2
        exit 1
    fi
    tail -1 "$work/build.log"
}

# Copies the seeds of target $1 into folder $2 (files of at most 64 KB; stores up to 160 KB).
seed() {
    local target=$1 into=$2 files=()
    case $target in
        csv) files+=(Fixtures/legacy/*.csv)
             [ -d "$corpus" ] && mapfile -t -O ${#files[@]} files < <(find "$corpus/conformance/csv-spectrum" "$corpus/conformance/rust-csv-examples-data" -name '*.csv' -size -64k) ;;
        json) files+=(Fixtures/legacy/*.json Fixtures/legacy/*.ndjson)
              [ -d "$corpus" ] && mapfile -t -O ${#files[@]} files < <(find "$corpus/conformance/JSONTestSuite" "$corpus/conformance/csv-spectrum/json" -name '*.json' -size -64k) ;;
        xml-plist|binary-plist)
              files+=(Fixtures/legacy/*.plist)
              [ -d "$corpus" ] && mapfile -t -O ${#files[@]} files < <(find "$corpus/conformance" -type f \( -name '*.plist' -o -name '*.bplist' -o -name '*.xml' -o -name '*.strings' \) -size -64k) ;;
        gzip) for file in Fixtures/legacy/*; do [ -f "$file" ] && gzip -c "$file" > "$into/$(basename "$file").gz"; done ;;
        xcode-model) [ -d "$corpus" ] && mapfile -t files < <(find "$corpus/coredata" Migrations -name contents -size -64k) || mapfile -t files < <(find Migrations -name contents) ;;
        keyed-archive)
              [ -d "$corpus" ] && mapfile -t files < <(find "$corpus/coredata" -name '*.mom' -size -64k)
              if [ -d "$corpus" ] && command -v sqlite3 > /dev/null; then
                  local n=0
                  while read -r store; do
                      n=$((n + 1))
                      sqlite3 "file:$store?immutable=1" "SELECT writefile('$into/cache-$n.deflated', Z_CONTENT) FROM Z_MODELCACHE" > /dev/null 2>&1 || true
                  done < <(find "$corpus/coredata" -name '*.sqlite')
              fi ;;
        predicate) ;;
        mapping) files+=(Migrations/*.mapping) ;;
        store) [ -d "$corpus" ] && mapfile -t files < <(find "$corpus/coredata" -name '*.sqlite' -size -160k) ;;
        *) echo "unknown target $target; targets: ${targets[*]}" >&2; exit 2 ;;
    esac
    local n=0
    for file in "${files[@]}"; do
        [ -f "$file" ] || continue
        n=$((n + 1))
        cp "$file" "$into/seed-$n-$(basename "$file" | tr -c 'A-Za-z0-9._-' '_')"
    done
    if [ -d "Fuzz/corpus/$target" ]; then cp Fuzz/corpus/"$target"/* "$into/" 2> /dev/null || true; fi
}

# Runs every saved input of every target once.
replay() {
    local target inputs leaks
    for target in "${targets[@]}"; do
        mapfile -t inputs < <(find "Fuzz/corpus/$target" "Fuzz/crashes/$target" -type f 2> /dev/null)
        mapfile -t leaks < <(find "Fuzz/crashes/$target" -type f -name 'leak-*' 2> /dev/null)
        [ ${#inputs[@]} -gt 0 ] || continue
        echo "replay $target: ${#inputs[@]} inputs"
        { FERRY_FUZZ_TARGET=$target "$binary" "${options[@]}" -timeout=20 "${inputs[@]}" > "$work/replay-$target.log" 2>&1 \
            && { [ ${#leaks[@]} -eq 0 ] || FERRY_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 "$binary" -detect_leaks=1 "${leaks[@]}" \
                >> "$work/replay-$target.log" 2>&1; }; } || {
            tail -40 "$work/replay-$target.log" >&2
            echo "replay of $target failed" >&2
            exit 1
        }
    done
}

# Fuzzes target $1 for $2 seconds; a finding is kept in Fuzz/crashes/$1.
fuzz() {
    local target=$1 seconds=$2 seeds="$work/$1/seeds" found="$work/$1/corpus" artifacts="$work/$1/artifacts"
    mkdir -p "$seeds" "$found" "$artifacts"
    seed "$target" "$seeds"
    echo "fuzz $target for ${seconds}s from $(find "$seeds" -type f | wc -l) seeds"
    if ! FERRY_FUZZ_TARGET=$target "$binary" "$found" "$seeds" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" "${options[@]}" \
        -max_len=262144 -print_final_stats=1 ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -artifact_prefix="$artifacts/" > "$work/$target.log" 2>&1; then
        tail -60 "$work/$target.log" >&2
        mkdir -p "Fuzz/crashes/$target"
        cp "$artifacts"/* "Fuzz/crashes/$target/" 2> /dev/null || true
        echo "$target: finding saved in Fuzz/crashes/$target/ (replay it with: FERRY_FUZZ_TARGET=$target $binary FILE)" >&2
        exit 1
    fi
    grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "$work/$target.log" | sed "s/^/  $target /"
    echo "  $target: $(find "$found" -type f | wc -l) new inputs in $found"
}

[ $# -ge 1 ] || { sed -n '2,15p' "$0"; exit 2; }
if [ "$1" = list ]; then echo "${targets[*]}"; exit 0; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ferry-fuzz.XXXXXX")
# LeakSanitizer reports pointers that Swift keeps with tag bits in enum payloads (a global such
# as `static let null: PropertyListValue`) as leaks, so fuzzing runs without leak detection;
# inputs saved as crashes/TARGET/leak-* are replayed with it.
options=(-rss_limit_mb=2048 -detect_leaks=0 -artifact_prefix="$work/")
# AddressSanitizer checks for leaks at exit on its own; Swift's backtracer would take libFuzzer's
# place on a trap. AddressSanitizer records no stack for each allocation (malloc_context_size=0):
# that took a fifth of a model target's time, and a report still shows the faulting access's
# stack; replay a finding with ASAN_OPTIONS=malloc_context_size=30 to see where its memory came from.
export ASAN_OPTIONS=detect_leaks=0:malloc_context_size=0 SWIFT_BACKTRACE=enable=no

build
case $1 in
    replay) replay ;;
    ci) replay; for target in "${targets[@]}"; do fuzz "$target" "${FUZZ_CI_SECONDS:-6}"; done ;;
    all) for target in "${targets[@]}"; do fuzz "$target" "${2:?seconds}"; done ;;
    *) fuzz "$1" "${2:?seconds}" ;;
esac
echo "fuzz: done ($work)"
