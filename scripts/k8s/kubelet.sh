# Kubelets for scripts/k8s-cluster.sh (sourced; uses its variables and helpers).
# --docker as well as --docker-endpoint: cAdvisor inside the kubelet would otherwise watch
# the main engine's socket.

# Kubelet needs its --cgroup-root in every mounted cgroup v1 hierarchy.
cgroup_make() {
  local h
  for h in /sys/fs/cgroup/*/; do
    case $h in */unified/) continue ;; esac
    [ -f "$h/cgroup.procs" ] || continue
    mkdir -p "$h$1"
    if [ -f "$h/cpuset.cpus" ]; then
      [ -n "$(cat "$h$1/cpuset.cpus")" ] || cat "$h/cpuset.cpus" >"$h$1/cpuset.cpus"
      [ -n "$(cat "$h$1/cpuset.mems")" ] || cat "$h/cpuset.mems" >"$h$1/cpuset.mems"
    fi
  done
  # On cgroup v2 one tree holds all controllers.
  [ ! -f /sys/fs/cgroup/cgroup.controllers ] || mkdir -p "/sys/fs/cgroup/$1"
}
cgroup_remove() {
  local h
  for h in /sys/fs/cgroup/*/ /sys/fs/cgroup/; do
    [ -d "$h$1" ] || continue
    find "$h$1" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
}

# The pod network: our CNI plugin (scripts/k8s/cni/evalrig-isolated) gives each pod an
# address with no route and no host-side interface; loopback comes from Debian's plugin.
start_kubelet() {
  local i=$1 ip=127.0.0.$1 port=$((16240 + 10 * $1)) hport=$((16238 + 10 * $1))
  local nd=$RUN/node$i sock=$ENGINES/d$1/docker.sock
  mkdir -p "$nd/root" "$nd/dockershim" "$nd/cni-conf" "$nd/cni-cache" "$nd/volume-plugins" "$RUN/cni-bin"
  cert "node$i" "system:node:$ip" system:nodes
  kubeconfig "node$i" "node$i"
  install -m 755 "$HERE/k8s/cni/evalrig-isolated" "$RUN/cni-bin/evalrig-isolated"
  printf '{"cniVersion": "0.4.0", "name": "evalrig-isolated", "plugins": [{"type": "evalrig-isolated", "ipPrefix": "10.254.%s.", "dataDir": "%s"}]}\n' \
    "$i" "$nd/cni-ipam" >"$nd/cni-conf/10-evalrig-isolated.conflist"
  cat >"$nd/kubelet-config.yaml" <<KUBELET
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $ip
port: $port
readOnlyPort: 0
healthzBindAddress: $ip
healthzPort: $hport
authentication: {anonymous: {enabled: false}, webhook: {enabled: true}, x509: {clientCAFile: "$PKI/ca.crt"}}
authorization: {mode: Webhook}
cgroupDriver: cgroupfs
cgroupRoot: /ek8s-n$i
cgroupsPerQOS: true
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "100Mi"}
failSwapOn: false
makeIPTablesUtilChains: false
protectKernelDefaults: false
serializeImagePulls: false
maxPods: 30
resolvConf: /etc/resolv.conf
KUBELET
  cgroup_make "ek8s-n$i"
  # Without CAP_SYS_RESOURCE runc cannot lower oom_score_adj; the patch clamps it then.
  local capeff no_neg=1
  capeff=$(awk '/^CapEff:/{print $2}' /proc/self/status)
  (( (16#$capeff >> 24) & 1 )) && no_neg=0
  # AWS_EC2_METADATA_DISABLED: the built-in image credential lookup otherwise connects to
  # 169.254.169.254 at start. The KUBELET_* switches turn on the patches in scripts/k8s/patches.
  AWS_EC2_METADATA_DISABLED=true KUBELET_KERNEL_TUNABLES=warn KUBELET_NO_DOCKERD_ADJUST=1 \
  KUBELET_NO_NEGATIVE_OOM_SCORE_ADJ=$no_neg \
  spawn "kubelet$i" "$OUT/kubelet" --config="$nd/kubelet-config.yaml" \
    --kubeconfig="$PKI/node$i.kubeconfig" --root-dir="$nd/root" --cert-dir="$nd/root/pki" \
    --volume-plugin-dir="$nd/volume-plugins" --hostname-override="$ip" \
    --container-runtime=docker --docker-endpoint="unix://$sock" --docker="unix://$sock" \
    --container-runtime-endpoint="unix://$ENGINES/d$i/dockershim.sock" \
    --experimental-dockershim-root-directory="$nd/dockershim" --pod-infra-container-image="$PAUSE_IMAGE" \
    --network-plugin=cni --cni-bin-dir="$TOOLS/usr/lib/cni,$RUN/cni-bin" --cni-conf-dir="$nd/cni-conf" \
    --cni-cache-dir="$nd/cni-cache" --node-labels=evalrig.dev/node=n$i --v=1
  wait_for "node $ip Ready" 180 sh -c "'$OUT/kubectl' --kubeconfig='$PKI/admin.kubeconfig' get node $ip -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True"
}
