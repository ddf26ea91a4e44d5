#!/usr/bin/env bash
# A real Kubernetes cluster on one host, for the Kubernetes provider's tests and CI.
#
#   k8s-cluster.sh build       build Kubernetes 1.20.2 from Debian's source package (once; cached)
#   k8s-cluster.sh start [N]   etcd, control plane, a loopback registry, N kubelets (default 2)
#   k8s-cluster.sh status      what runs, and the nodes
#   k8s-cluster.sh env         shell lines naming the kubeconfigs, registry and namespace
#   k8s-cluster.sh stop        end what start started (by recorded pid) and remove what it made
#
# Why built from source: the machine has Debian's archive and no container registry; Debian
# ships Kubernetes' source and Go, not the server binaries. Every listener is on loopback,
# and each kubelet runs pods on a Docker engine of its own, never the main one.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${EVALRIG_K8S_CACHE:-$HOME/.cache/evalrig/k8s}
K8S_VERSION=1.20.2
TOOLS=$CACHE/tools   # extracted debs: Go, etcd, CNI plugins, the registry
SRC=$CACHE/src/kubernetes
OUT=$CACHE/bin
LOGS=$CACHE/logs
GOPATH_DIR=$CACHE/gopath
NICE="nice -n 19 ionice -c3"
BINS="kube-apiserver kube-controller-manager kube-scheduler kubelet kubectl"
DEBS="golang-1.19-go golang-1.19-src etcd-server containernetworking-plugins golang-github-modern-go-reflect2-dev docker-registry"

log() { echo "k8s-cluster: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Building, certificates, kubelets: one file each under scripts/k8s/.
. "$HERE/k8s/build.sh"

# ---------------------------------------------------------------- state ----

# Pids, logs, certificates: removed by stop, and on tmpfs so that a reboot removes them too
# (a state folder that outlived its processes made the next start compare against a dead host).
RUN=/run/evalrig-k8s-state
PKI=$RUN/pki
ENGINES=/run/evalrig-k8s  # the node engines' sockets and exec roots
NAMESPACE=evalrig
ETCD_PORT=16379; ETCD_PEER_PORT=16380; API_PORT=16443; CM_PORT=16457; SCHED_PORT=16459
REGISTRY=127.0.0.1:16500
PAUSE_IMAGE=evalrig.local/pause:3.4.1
KUBECTL=("$OUT/kubectl" "--kubeconfig=$PKI/admin.kubeconfig")

now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", (b - a) / 1e9}'; }

# A process is ours when its recorded pid is alive and still runs the program recorded with it.
is_running() {
  local f=$RUN/$1.pid
  [ -f "$f" ] && [ -d "/proc/$(cat "$f")" ] && grep -qF -- "$(cat "$RUN/$1.exe")" "/proc/$(cat "$f")/cmdline" 2>/dev/null
}
spawn() {
  local name=$1; shift
  is_running "$name" && return 0
  echo "$1" >"$RUN/$name.exe"
  setsid "$@" >"$RUN/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN/$name.pid"
  log "started $name (pid $!)"
}
wait_for() {
  local what=$1 tries=$(( $2 * 5 )); shift 2
  while ! "$@" >/dev/null 2>&1; do
    tries=$((tries - 1)); [ $tries -gt 0 ] || die "$what not ready; see $RUN/*.log"
    sleep 0.2
  done
}

. "$HERE/k8s/pki.sh"

# --------------------------------------------------------- host witness ----

# What the cluster must leave as it found it: the main engine's bridge and oom score, and the
# sysctls an unpatched kubelet would rewrite.
host_facts() {
  local pid k
  echo "docker0 $(ip -o link show docker0 >/dev/null 2>&1 && echo present || echo absent)"
  # The main engine: the dockerd on the default socket, whatever its pidfile (other engines,
  # ours and tests', name a socket with -H).
  local cmd
  for pid in $(pgrep -x dockerd || true); do
    cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null) || continue
    case " $cmd" in *" -H "*|*" -H="*|*" --host"*) case $cmd in *unix:///var/run/docker.sock*) ;; *) continue ;; esac ;; esac
    echo "main engine $pid oom_score_adj $(cat "/proc/$pid/oom_score_adj" 2>/dev/null || echo gone)"
  done
  for k in vm/overcommit_memory vm/panic_on_oom kernel/panic kernel/panic_on_oops kernel/keys/root_maxkeys kernel/keys/root_maxbytes; do
    echo "$k $(cat "/proc/sys/$k" 2>/dev/null || echo none)"
  done
}
host_check() {
  host_facts >"$1.now"
  diff "$1" "$1.now" >&2 || die "the host changed (< before, > now)"
  rm -f "$1.now"
  [ ! -S /var/run/docker.sock ] || docker -H unix:///var/run/docker.sock version >/dev/null 2>&1 \
    || die "the main Docker engine stopped answering"
}

# ------------------------------------------------------- node engines ----

# Each node gets a dockerd of its own. A bridge of its own keeps dockerd away from docker0
# (with --bridge=none a second dockerd deletes the main engine's docker0).
start_engine() {
  local i=$1 br=ek8s-br$1 rd=$ENGINES/d$1 dd=$RUN/engine$1
  local D=(docker -H "unix://$rd/docker.sock")
  mkdir -p "$rd" "$dd"
  if ! ip link show "$br" >/dev/null 2>&1; then
    ip link add "$br" type bridge
    echo "$br" >>"$RUN/bridges"
  fi
  printf '{"insecure-registries": ["%s"], "bridge": "%s", "iptables": false, "ip6tables": false, "ip-forward": false, "ip-masq": false, "userland-proxy": false, "log-driver": "json-file"}\n' \
    "$REGISTRY" "$br" >"$dd/daemon.json"
  spawn "dockerd$i" /usr/sbin/dockerd --config-file="$dd/daemon.json" -H "unix://$rd/docker.sock" \
    --data-root="$CACHE/engine$i" --exec-root="$rd/x" --pidfile="$rd/dockerd.pid" --cgroup-parent="/ek8s-docker$i"
  wait_for "dockerd$i" 60 "${D[@]}" version
  # The pause image comes from the cache, so a node needs no registry to start a pod.
  "${D[@]}" image inspect "$PAUSE_IMAGE" >/dev/null 2>&1 \
    || "${D[@]}" import --change 'ENTRYPOINT ["/pause"]' --change 'USER 65535:65535' "$CACHE/pause.tar" "$PAUSE_IMAGE" >/dev/null
}

start_registry() {
  mkdir -p "$CACHE/registry"
  printf 'version: 0.1\nstorage: {filesystem: {rootdirectory: "%s"}, delete: {enabled: true}}\nhttp: {addr: "%s"}\nlog: {level: warn}\n' \
    "$CACHE/registry" "$REGISTRY" >"$RUN/registry.yml"
  spawn registry "$TOOLS/usr/bin/docker-registry" serve "$RUN/registry.yml"
  wait_for registry 30 curl -sf "http://$REGISTRY/v2/"
  # The pause image in the registry too: a pod can then prove its node pulls from it.
  local D=(docker -H "unix://$ENGINES/d1/docker.sock")
  if ! curl -sf "http://$REGISTRY/v2/evalrig/pause/manifests/3.4.1" -H 'Accept: application/vnd.docker.distribution.manifest.v2+json' >/dev/null; then
    "${D[@]}" tag "$PAUSE_IMAGE" "$REGISTRY/evalrig/pause:3.4.1"
    "${D[@]}" push "$REGISTRY/evalrig/pause:3.4.1" >/dev/null
  fi
}

# ------------------------------------------------------- control plane ----

start_control_plane() {
  # A fresh store on every cold start: stale nodes would make "Ready" lie.
  is_running etcd || rm -rf "$RUN/etcd"
  mkdir -p "$RUN/etcd"; chmod 700 "$RUN/etcd"
  spawn etcd "$TOOLS/usr/bin/etcd" --name evalrig --data-dir "$RUN/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "evalrig=http://127.0.0.1:$ETCD_PEER_PORT"
  wait_for etcd 30 curl -sf "http://127.0.0.1:$ETCD_PORT/health"
  spawn kube-apiserver "$OUT/kube-apiserver" --bind-address=127.0.0.1 --advertise-address=127.0.0.1 \
    --secure-port=$API_PORT --insecure-port=0 --etcd-servers="http://127.0.0.1:$ETCD_PORT" \
    --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" --client-ca-file="$PKI/ca.crt" \
    --kubelet-client-certificate="$PKI/apiserver-kubelet-client.crt" --kubelet-client-key="$PKI/apiserver-kubelet-client.key" \
    --kubelet-preferred-address-types=InternalIP,Hostname \
    --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
    --service-account-issuer=https://kubernetes.default.svc --service-cluster-ip-range=10.0.0.0/24 \
    --endpoint-reconciler-type=none --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
    --allow-privileged=false --profiling=false --v=1
  wait_for kube-apiserver 120 "${KUBECTL[@]}" get --raw /readyz
  spawn kube-controller-manager "$OUT/kube-controller-manager" --kubeconfig="$PKI/controller-manager.kubeconfig" \
    --authentication-kubeconfig="$PKI/controller-manager.kubeconfig" --authorization-kubeconfig="$PKI/controller-manager.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port=$CM_PORT --port=0 --leader-elect=false \
    --service-account-private-key-file="$PKI/sa.key" --root-ca-file="$PKI/ca.crt" --use-service-account-credentials=true \
    --cluster-name=evalrig-test --profiling=false --flex-volume-plugin-dir="$RUN/cm-flex" --v=1
  spawn kube-scheduler "$OUT/kube-scheduler" --kubeconfig="$PKI/scheduler.kubeconfig" \
    --authentication-kubeconfig="$PKI/scheduler.kubeconfig" --authorization-kubeconfig="$PKI/scheduler.kubeconfig" \
    --bind-address=127.0.0.1 --secure-port=$SCHED_PORT --port=0 --leader-elect=false --profiling=false --v=1
  "${KUBECTL[@]}" get namespace "$NAMESPACE" >/dev/null 2>&1 || "${KUBECTL[@]}" create namespace "$NAMESPACE" >/dev/null
  "${KUBECTL[@]}" apply -f "$HERE/../docs/k8s/evalrig-role.yaml" >/dev/null
  "${KUBECTL[@]}" -n "$NAMESPACE" get rolebinding evalrig-provider >/dev/null 2>&1 \
    || "${KUBECTL[@]}" -n "$NAMESPACE" create rolebinding evalrig-provider --role=evalrig-provider --user=evalrig-provider >/dev/null
  wait_for "the $NAMESPACE service account" 120 "${KUBECTL[@]}" -n "$NAMESPACE" get serviceaccount default
}

. "$HERE/k8s/kubelet.sh"

cmd_start() {
  local n=${1:-2} t0 i
  case $n in 1|2|3|4) ;; *) die "start: N must be 1 to 4, got '$n'" ;; esac
  for i in $BINS; do [ -x "$OUT/$i" ] || die "start: $OUT/$i missing; run '$0 build' first"; done
  [ -f "$CACHE/pause.tar" ] || die "start: $CACHE/pause.tar missing; run '$0 build' first"
  t0=$(now)
  mkdir -p "$RUN"
  [ -f "$RUN/host.before" ] || host_facts >"$RUN/host.before"
  [ -e /var/log/pods ] || [ -f "$RUN/created-var-log" ] || touch "$RUN/created-var-log"
  [ -e /var/lib/kubelet ] || [ -f "$RUN/created-var-lib-kubelet" ] || touch "$RUN/created-var-lib-kubelet"
  make_pki
  for i in $(seq 1 "$n"); do start_engine "$i"; done
  start_registry
  start_control_plane
  for i in $(seq 1 "$n"); do start_kubelet "$i"; done
  host_check "$RUN/host.before"
  log "start: $n node(s) Ready in $(secs "$t0")s"
}

cmd_status() {
  local f n
  for f in "$RUN"/*.pid; do
    [ -f "$f" ] || continue; n=$(basename "$f" .pid)
    if is_running "$n"; then echo "$n: running (pid $(cat "$f"))"; else echo "$n: not running"; fi
  done
  if is_running kube-apiserver; then "${KUBECTL[@]}" get nodes -o wide; else echo "cluster: not running"; fi
}

cmd_env() {
  is_running kube-apiserver || die "env: the cluster is not running; run '$0 start'"
  echo "EVALRIG_K8S_ADMIN_KUBECONFIG=$PKI/admin.kubeconfig"
  echo "EVALRIG_K8S_KUBECONFIG=$PKI/provider.kubeconfig"
  echo "EVALRIG_K8S_REGISTRY=$REGISTRY"
  echo "EVALRIG_K8S_NAMESPACE=$NAMESPACE"
  echo "EVALRIG_K8S_KUBECTL=$OUT/kubectl"
  echo "EVALRIG_K8S_STATE=$RUN"
}

stop_one() {
  local f=$RUN/$1.pid pid
  [ -f "$f" ] || return 0
  if is_running "$1"; then
    pid=$(cat "$f"); kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do [ -d "/proc/$pid" ] || break; sleep 0.2; done
    ! is_running "$1" || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$f" "$RUN/$1.exe"
}

cmd_stop() {
  [ -d "$RUN" ] || { log "stop: nothing running"; return 0; }
  local i m sock
  for i in 1 2 3 4; do stop_one "kubelet$i"; done
  for i in 1 2 3 4; do
    sock=$ENGINES/d$i/docker.sock
    if is_running "dockerd$i" && [ -S "$sock" ]; then
      m=$(docker -H "unix://$sock" ps -aq || true); [ -z "$m" ] || docker -H "unix://$sock" rm -f $m >/dev/null
    fi
    stop_one "dockerd$i"
  done
  for m in registry kube-scheduler kube-controller-manager kube-apiserver etcd; do stop_one "$m"; done
  # What kubelets and dockershim left mounted under our folders.
  for m in $(awk '{print $2}' /proc/self/mounts | grep "^$RUN/\|^$ENGINES/\|^$CACHE/engine" | sort -r); do
    umount "$m" 2>/dev/null || umount -l "$m" || true
  done
  for i in 1 2 3 4; do cgroup_remove "ek8s-n$i"; cgroup_remove "ek8s-docker$i"; done
  if [ -f "$RUN/bridges" ]; then
    while read -r m; do ip link del "$m" 2>/dev/null || true; done <"$RUN/bridges"
  fi
  # Kubelet 1.20 hard-codes these paths; remove them only when start made them.
  [ ! -f "$RUN/created-var-log" ] || rm -rf /var/log/pods /var/log/containers
  [ ! -f "$RUN/created-var-lib-kubelet" ] || rm -rf /var/lib/kubelet
  rm -rf "$ENGINES"
  if [ -f "$RUN/host.before" ]; then
    mv "$RUN/host.before" "$CACHE/host.before"; rm -rf "$RUN"
    host_check "$CACHE/host.before"; rm -f "$CACHE/host.before"
  else
    rm -rf "$RUN"
  fi
  log "stop: done"
}

case "${1:-}" in
  build) cmd_build ;;
  start) cmd_start "${2:-2}" ;;
  status) cmd_status ;;
  env) cmd_env ;;
  stop) cmd_stop ;;
  *) sed -n 2,9p "$0" >&2; exit 2 ;;
esac
