#!/usr/bin/env bash
# Crash injection: kills `ferry migrate`, `import --append`, `backup` and `restore` with SIGKILL at
# random moments on the bundled fixtures, and checks each time that
#   1. the destination is absent (when it was), unchanged (same SHA-256; for backups the same
#      folders) or complete and verifying (`ferry verify` for a store; a new backup restores, which
#      checks every file against its manifest);
#   2. the next, uninterrupted run to the same destination succeeds;
#   3. after it, no temporary file survives (`*.ferry-<UUID>.tmp*`, `.incomplete-*`).
# `import --append` is killed a second time over a store whose last commit is only in its -wal (as
# `ferry update` leaves it): the store must keep that commit, whether the rows went in or not.
#
# usage: Tests/CrashInjection/run.sh [COUNT]    COUNT kills per verb (default 100)
# FERRY names the binary (default .build/debug/ferry, from `swift build`). Prints one line per verb
# with the outcomes and the time, and exits 1 at the first violation.
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-100}
ferry=${FERRY:-.build/debug/ferry}
model=Migrations/Workspace.xcdatamodeld
[ -x "$ferry" ] || { echo "crash injection: no $ferry (run swift build)" >&2; exit 2; }
ferry=$(cd "$(dirname "$ferry")" && pwd)/$(basename "$ferry")
root=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ferry-crash-injection.XXXXXX")
trap 'rm -rf "$work"' EXIT

migrate=(migrate "UploadEntity:$root/Fixtures/legacy/uploads.csv" "Task:$root/Fixtures/legacy/tasks.json"
         --model "$root/$model" --link attachments=remotePath --link tags=name --var zone=Asia/Shanghai)
append=(import "$root/Fixtures/legacy/uploads.csv" --model "$root/$model" --model-version "Workspace 1" --entity UploadEntity)

fail() { echo "crash injection: $*" >&2; exit 1; }

# The fingerprint of a destination: the SHA-256 of a store (and its -wal), or the list of backups.
state() {
    if [ -d "$1" ]; then
        (cd "$1" && ls -1)
    elif [ -e "$1" ]; then
        { cat "$1"; if [ -e "$1-wal" ]; then cat "$1-wal"; fi; } | sha256sum
    else
        echo absent
    fi
}

# Fails when a temporary file of a run (or the external data folder of a store it built) is left in folder $1.
no_leftovers() {
    local left
    left=$(find "$1" -maxdepth 1 \( -name '*.ferry-*.tmp*' -o -name '.incomplete-*' -o -name '.ferry-*.tmp' -o -name '.*.ferry-*_SUPPORT' \) | head -n 3)
    [ -z "$left" ] || fail "$2: left behind after the next run: $left"
}

# Runs "$@" in the background and kills it with SIGKILL after a random delay in [0, $limit_ms]:
# prints "killed" or "finished".
kill_at_random() {
    local limit_ms=$1; shift
    "$@" >/dev/null 2>&1 &
    local pid=$!
    local delay_ms=$(( (RANDOM * 32768 + RANDOM) % (limit_ms + 1) ))
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    if kill -9 "$pid" 2>/dev/null; then
        wait "$pid" 2>/dev/null || true
        echo killed
    else
        wait "$pid" 2>/dev/null || true
        echo finished
    fi
}

# Milliseconds an uninterrupted run of "$@" takes (exit 0 or 1 required).
duration_ms() {
    local start end status=0
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || status=$?
    end=$(date +%s%N)
    [ "$status" -le 1 ] || fail "an uninterrupted run failed ($status): $*"
    echo $(( (end - start) / 1000000 ))
}

# One verb: $1 name, $2 destination, then the command. Before every other kill the destination is
# removed (so both "absent" and "existing" starting points are killed); $prepare runs first.
inject() {
    local name=$1 destination=$2; shift 2
    local folder; folder=$(dirname "$destination")
    [ "$name" != backup ] || folder=$destination
    local limit; limit=$(duration_ms "$@")
    limit=$(( limit + limit / 5 + 20 ))
    local absent=0 unchanged=0 complete=0 finished=0 started; started=$(date +%s)
    for ((i = 1; i <= count; i++)); do
        if [ "$name" != "import --append" ] && [ "$name" != "backup" ] && (( i % 2 == 0 )); then rm -f "$destination"; fi
        local before; before=$(state "$destination")
        local outcome; outcome=$(kill_at_random "$limit" "$@")
        [ "$outcome" = finished ] && finished=$((finished + 1))
        local after; after=$(state "$destination")
        if [ "$after" = "$before" ]; then
            if [ "$before" = absent ]; then absent=$((absent + 1)); else unchanged=$((unchanged + 1)); fi
        elif [ "$name" = backup ]; then
            local added; added=$(comm -13 <(echo "$before") <(echo "$after"))
            [ "$(echo "$added" | grep -c .)" = 1 ] || fail "backup #$i: the folders changed without one new backup: $before → $after"
            "$ferry" restore "$destination/$added" --model "$root/$model" --out "$work/check.sqlite" --force >/dev/null 2>&1 \
                || fail "backup #$i: the new backup $added does not restore"
            rm -f "$work/check.sqlite"
            complete=$((complete + 1))
        else
            [ "$after" != absent ] || fail "$name #$i: the destination disappeared"
            "$ferry" verify "$destination" --model "$root/$model" >/dev/null 2>&1 || fail "$name #$i: the destination does not verify"
            complete=$((complete + 1))
        fi
        local status=0
        "$@" >/dev/null 2>&1 || status=$?
        [ "$status" -le 1 ] || fail "$name #$i: the next run failed with exit $status"
        no_leftovers "$folder" "$name #$i"
    done
    printf '%-16s %4d kills: %3d absent, %3d unchanged, %3d complete and verifying (%d finished before the kill); %ds\n' \
        "$name" "$count" "$absent" "$unchanged" "$complete" "$finished" $(( $(date +%s) - started ))
}

# The number of uploads of store $1 whose fileName is $2.
marked() {
    "$ferry" query "$1" --entity UploadEntity --where "fileName == '$2'" --format ndjson | wc -l
}

# import --append ("$@", destination $1) over a store whose last commit (every fileName set to
# mark-N) is only in its -wal: killed at any moment, the store keeps every row of that commit.
inject_over_log() {
    local destination=$1; shift
    local limit; limit=$(duration_ms "$@")
    limit=$(( limit + limit / 5 + 20 ))
    local finished=0 started; started=$(date +%s)
    for ((i = 1; i <= count; i++)); do
        "$ferry" update "$destination" --entity UploadEntity --where 'Z_PK > 0' --set "fileName=mark-$i" >/dev/null 2>&1 \
            || fail "import --append (-wal) #$i: the update failed"
        [ -s "$destination-wal" ] || fail "import --append (-wal) #$i: the update left no -wal"
        local before; before=$(marked "$destination" "mark-$i")
        [ "$(kill_at_random "$limit" "$@")" = finished ] && finished=$((finished + 1))
        local after; after=$(marked "$destination" "mark-$i")
        [ "$after" = "$before" ] || fail "import --append (-wal) #$i: $before rows committed in the -wal before the kill, $after after"
        local status=0
        "$@" >/dev/null 2>&1 || status=$?
        [ "$status" -le 1 ] || fail "import --append (-wal) #$i: the next run failed with exit $status"
        no_leftovers "$(dirname "$destination")" "import --append (-wal) #$i"
    done
    printf '%-16s %4d kills: every commit of the -wal kept (%d finished before the kill); %ds\n' \
        "append over -wal" "$count" "$finished" $(( $(date +%s) - started ))
}

mkdir -p "$work/migrate" "$work/append" "$work/backups" "$work/restore"
inject migrate "$work/migrate/Workspace.sqlite" "$ferry" "${migrate[@]}" --out "$work/migrate/Workspace.sqlite" --force
"$ferry" "${append[@]}" --out "$work/append/Uploads.sqlite" >/dev/null 2>&1 || [ $? -le 1 ]
# The same file each time: --again, as the store lists it as imported.
inject "import --append" "$work/append/Uploads.sqlite" "$ferry" "${append[@]}" --out "$work/append/Uploads.sqlite" --append --again
inject_over_log "$work/append/Uploads.sqlite" "$ferry" "${append[@]}" --out "$work/append/Uploads.sqlite" --append --again
inject backup "$work/backups" "$ferry" backup "$work/migrate/Workspace.sqlite" --to "$work/backups" --keep 2
backup="$work/backups/$(ls "$work/backups" | tail -n 1)"
inject restore "$work/restore/Restored.sqlite" "$ferry" restore "$backup" --model "$root/$model" --out "$work/restore/Restored.sqlite" --force
