# Building Kubernetes from Debian's source package, for scripts/k8s-cluster.sh
# (sourced; uses its variables and helpers).

# The deb-src list comes from the machine's own apt sources: the same archive, mirror and
# keyring the machine already trusts, with "deb" turned into "deb-src". Kept in the cache,
# never in the system's apt configuration.
write_src_list() {
  local out=$1 f
  : > "$out"
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n 's/^[[:space:]]*deb[[:space:]]\+/deb-src /p' "$f" >> "$out"
  done
  local deb822=$CACHE/apt/src.sources
  : > "$deb822"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # Stanzas are separated by blank lines; keep only those whose Types include "deb".
    awk 'BEGIN{RS=""; ORS="\n\n"} /(^|\n)Types:[^\n]*(^|[[:space:]])deb([[:space:]]|$)/ {
           sub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); sub(/^\n/, ""); print }' "$f" >> "$deb822"
  done
  [ -s "$out" ] || [ -s "$deb822" ] || die "no 'deb' line in /etc/apt/sources.list* to derive a deb-src source from"
}

fetch_sources() {
  mkdir -p "$CACHE/dl" "$CACHE/src" "$TOOLS" "$CACHE/apt/lists/partial" "$CACHE/apt/cache/archives/partial"
  local p missing=""
  for p in $DEBS; do ls "$CACHE/dl/${p}"_*.deb >/dev/null 2>&1 || missing="$missing $p"; done
  if [ -n "$missing" ]; then
    log "downloading$missing"
    (cd "$CACHE/dl" && apt-get download $missing)
  fi
  if [ ! -x "$TOOLS/usr/lib/go-1.19/bin/go" ] || [ ! -x "$TOOLS/usr/bin/docker-registry" ]; then
    for p in "$CACHE"/dl/*.deb; do dpkg-deb -x "$p" "$TOOLS"; done
  fi
  if [ ! -d "$SRC" ]; then
    if ! ls "$CACHE"/src/kubernetes_*.dsc >/dev/null 2>&1; then
      write_src_list "$CACHE/apt/src.list"
      local A=(-o Dir::Etc::sourcelist="$CACHE/apt/src.list" -o Dir::Etc::sourceparts="$CACHE/apt"
               -o Dir::State::Lists="$CACHE/apt/lists" -o Dir::Cache="$CACHE/apt/cache")
      apt-get "${A[@]}" update >"$LOGS/apt-update.log" 2>&1 || { tail "$LOGS/apt-update.log"; die "apt-get update (deb-src) failed"; }
      (cd "$CACHE/src" && apt-get "${A[@]}" source --download-only kubernetes)
    fi
    (cd "$CACHE/src" && dpkg-source -x kubernetes_*.dsc kubernetes >"$LOGS/dpkg-source.log")
  fi
}

prepare_tree() {
  local p
  # Kubelet patches for a shared host; each is opt-in by an environment variable (see the patches).
  for p in "$HERE"/k8s/patches/*.patch; do
    (cd "$SRC" && patch -p1 -R -s -f --dry-run <"$p" >/dev/null 2>&1) && continue
    log "applying $(basename "$p")"
    (cd "$SRC" && patch -p1 -s <"$p")
  done
  # The vendored reflect2 1.0.1 crashes under Go >= 1.18 (SIGSEGV in mapiternext); Debian's 1.0.2 works.
  local v=$SRC/vendor/github.com/modern-go/reflect2
  if [ ! -f "$v/go_above_118.go" ]; then
    rm -rf "$v"
    cp -a "$TOOLS/usr/share/gocode/src/github.com/modern-go/reflect2" "$v"
    log "vendor: reflect2 swapped for Debian's 1.0.2"
  fi
  # Kubernetes 1.20 builds in GOPATH mode (its hack/lib/init.sh sets GO111MODULE=off).
  mkdir -p "$GOPATH_DIR/src/k8s.io"
  ln -sfn "$SRC" "$GOPATH_DIR/src/k8s.io/kubernetes"
}

go_env() {
  export GOROOT=$TOOLS/usr/lib/go-1.19 PATH=$TOOLS/usr/lib/go-1.19/bin:$PATH
  export GOPATH=$GOPATH_DIR GOCACHE=$CACHE/gocache GOPROXY=off GOTOOLCHAIN=local CGO_ENABLED=0 GO111MODULE=off
  unset GOFLAGS
}

# The source tarball lacks the generated OpenAPI definitions the apiserver needs; generate them
# from the same packages the upstream Makefile feeds openapi-gen.
gen_openapi() {
  local f=$SRC/pkg/generated/openapi/zz_generated.openapi.go
  [ -f "$f" ] && return 0
  log "generating the OpenAPI definitions"
  ( go_env; cd "$GOPATH_DIR/src/k8s.io/kubernetes"
    $NICE go build -o "$OUT/openapi-gen" ./vendor/k8s.io/kube-openapi/cmd/openapi-gen
    local dirs
    dirs=$(find -H . \( -path './_*' -o -path './.*' -o -path ./vendor \) -prune -o -type f -name '*.go' -print \
      | sed 's|^\./staging/src|vendor|; s|^\./||' | xargs grep -l '^// *+k8s:' \
      | grep -v '^vendor/k8s.io/code-generator/\|^vendor/k8s.io/sample-apiserver/' \
      | xargs grep -l '+k8s:openapi-gen=' | xargs -n1 dirname | LC_ALL=C sort -u \
      | sed 's|^|k8s.io/kubernetes/|' | paste -sd,)
    $NICE "$OUT/openapi-gen" --logtostderr -i "$dirs" -p k8s.io/kubernetes/pkg/generated/openapi \
      -O zz_generated.openapi -h vendor/k8s.io/code-generator/hack/boilerplate.go.txt \
      -r "$LOGS/openapi-violations.report" >"$LOGS/openapi-gen.log" 2>&1 \
      || { tail -20 "$LOGS/openapi-gen.log"; exit 1; } )
}

build_bins() {
  local b missing=""
  for b in $BINS; do [ -x "$OUT/$b" ] || missing="$missing ./cmd/$b"; done
  [ -n "$missing" ] || return 0
  log "compiling$missing (log: $LOGS/go-build.log)"
  ( go_env; cd "$GOPATH_DIR/src/k8s.io/kubernetes"
    # The version stamp hack/lib/version.sh would set; clients check it.
    local ld="-s -w" p
    for p in k8s.io/kubernetes/vendor/k8s.io/component-base/version k8s.io/kubernetes/vendor/k8s.io/client-go/pkg/version; do
      ld="$ld -X $p.gitVersion=v$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=20 -X $p.gitTreeState=clean"
      ld="$ld -X $p.gitCommit=faecb196815e248d3ecfb03c680a4507229c2a56 -X $p.buildDate=2021-01-13T13:20:00Z"
    done
    $NICE go build -ldflags "$ld" -o "$OUT/tmp/" $missing >"$LOGS/go-build.log" 2>&1 \
      || { tail -30 "$LOGS/go-build.log"; exit 1; } )
  # Move into place only when all built, so a half build never looks finished.
  for b in $missing; do mv "$OUT/tmp/$(basename "$b")" "$OUT/"; done
}

# The pod sandbox ("pause") image, from the source tree's pause.c: no registry is needed.
build_pause() {
  [ -f "$CACHE/pause.tar" ] && return 0
  mkdir -p "$CACHE/pause"
  $NICE gcc -Os -Wall -Werror -static -DVERSION=v3.4.1-evalrig -o "$CACHE/pause/pause" "$SRC/build/pause/linux/pause.c"
  tar -C "$CACHE/pause" -cf "$CACHE/pause.tar.new" pause
  mv "$CACHE/pause.tar.new" "$CACHE/pause.tar"
}

cmd_build() {
  mkdir -p "$OUT/tmp" "$LOGS"
  local b done=1
  for b in $BINS; do [ -x "$OUT/$b" ] || done=0; done
  if [ $done = 1 ] && [ -f "$CACHE/pause.tar" ] && [ -x "$TOOLS/usr/bin/etcd" ] && [ -x "$TOOLS/usr/bin/docker-registry" ]; then
    log "build: cached in $CACHE"; return 0
  fi
  fetch_sources
  prepare_tree
  gen_openapi
  build_bins
  build_pause
  log "build: done ($OUT)"
}

