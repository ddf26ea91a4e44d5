# Certificates and kubeconfigs, for scripts/k8s-cluster.sh (sourced; uses its variables).

cert() {  # name CN [O] [SANs]
  local n=$1 cn=$2 o=${3:-} san=${4:-} subj
  [ -f "$PKI/$n.crt" ] && return 0
  subj="/CN=$cn"; [ -z "$o" ] || subj="/O=$o/CN=$cn"
  openssl genrsa -out "$PKI/$n.key" 2048 2>/dev/null
  openssl req -new -key "$PKI/$n.key" -subj "$subj" -out "$PKI/$n.csr" 2>/dev/null
  { echo "basicConstraints=CA:FALSE"; echo "keyUsage=critical,digitalSignature,keyEncipherment"
    if [ -n "$san" ]; then echo "extendedKeyUsage=serverAuth,clientAuth"; echo "subjectAltName=$san"
    else echo "extendedKeyUsage=clientAuth"; fi; } >"$PKI/$n.ext"
  openssl x509 -req -in "$PKI/$n.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial \
    -days 30 -sha256 -extfile "$PKI/$n.ext" -out "$PKI/$n.crt" 2>/dev/null
}
kubeconfig() {  # name cert [namespace]
  local kc=$PKI/$1.kubeconfig
  [ -f "$kc" ] && return 0
  cat >"$kc" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: evalrig-test
  cluster: {server: "https://127.0.0.1:$API_PORT", certificate-authority-data: "$(base64 -w0 <"$PKI/ca.crt")"}
users:
- name: $1
  user: {client-certificate-data: "$(base64 -w0 <"$PKI/$2.crt")", client-key-data: "$(base64 -w0 <"$PKI/$2.key")"}
contexts:
- name: default
  context: {cluster: evalrig-test, user: $1, namespace: ${3:-default}}
current-context: default
KUBECONFIG
  chmod 600 "$kc"
}
make_pki() {
  mkdir -p "$PKI"; chmod 700 "$PKI"
  [ -f "$PKI/ca.crt" ] || { openssl genrsa -out "$PKI/ca.key" 2048 2>/dev/null
    openssl req -x509 -new -key "$PKI/ca.key" -subj "/CN=evalrig-test-ca" -days 30 -sha256 -out "$PKI/ca.crt" 2>/dev/null; }
  cert apiserver kube-apiserver "" "IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc"
  cert admin evalrig-admin system:masters
  cert apiserver-kubelet-client kube-apiserver-kubelet-client system:masters
  cert controller-manager system:kube-controller-manager
  cert scheduler system:kube-scheduler
  cert provider evalrig-provider   # the restricted user: only the Role in docs/k8s/evalrig-role.yaml
  [ -f "$PKI/sa.key" ] || { openssl genrsa -out "$PKI/sa.key" 2048 2>/dev/null; openssl rsa -in "$PKI/sa.key" -pubout -out "$PKI/sa.pub" 2>/dev/null; }
  kubeconfig admin admin; kubeconfig controller-manager controller-manager; kubeconfig scheduler scheduler
  kubeconfig provider provider "$NAMESPACE"
}

