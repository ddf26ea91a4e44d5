#!/bin/sh
# The baseline of scripts/bench/mining.ts: what a person does by hand to validate mined tasks,
# in one container of the same image: for each task (a line "<commit> <parent>" on stdin), a
# checkout of the parent, the commit's tests put in, the touched tests and the others run,
# the commit's change applied, both run again; all of it twice.
# Usage: mining-by-hand.sh <repository> <test command prefix>   (tasks on stdin)
set -u
repo=$1
runner=$2
work=$(mktemp -d)
# The repository is mounted from the host, owned by another user: trusted here (it is read only).
export HOME="$work"
git config --global --add safe.directory '*'
while read -r commit parent; do
  for round in 1 2; do
    rm -rf "$work/tree"
    git clone -q "$repo" "$work/tree"
    cd "$work/tree" || exit 1
    git checkout -q "$parent"
    touched=$(git diff --name-only "$parent" "$commit" -- test)
    others=$(git ls-tree -r --name-only "$parent" test | grep -vxF "$touched")
    git checkout -q "$commit" -- $touched
    $runner $touched >/dev/null 2>&1 && echo "$commit $round: touched tests pass at the parent"
    $runner $others >/dev/null 2>&1 || echo "$commit $round: other tests fail at the parent"
    git diff "$parent" "$commit" -- . ':(exclude)test' | git apply || echo "$commit $round: no apply"
    $runner $touched >/dev/null 2>&1 || echo "$commit $round: touched tests fail at the commit"
    $runner $others >/dev/null 2>&1 || echo "$commit $round: other tests fail at the commit"
    cd / || exit 1
  done
done
rm -rf "$work"
