#!/usr/bin/env bash
# Builds a stand-in for the official `node:24-bookworm-slim` image, for machines that reach no public image registry
# (CI here): Debian bookworm's minimal base from the mirror apt is configured with, Node 24 from the npm `node`
# package (the binary package.json pins), npm, and the `node` user (uid 1000) in the official image's places.
# Like a company's own base image, it carries the machine's CA bundle (NODE_EXTRA_CA_CERTS), so that npm reaches the
# registry through a TLS-intercepting proxy. Usage: build-standin-base.sh [tag]
set -euo pipefail
cd "$(dirname "$0")/../.."
tag=${1:-localhost/node:24-bookworm-slim-standin}
# The mirror apt uses here (deb822 `URIs:` or a one-line `deb` entry), else Debian's own.
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p; s/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm .*/\2/p' \
  /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | grep -v security | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}
node_binary=$(readlink -f node_modules/.bin/node)
node_version=$("$node_binary" --version)
case "$node_version" in v24.*) ;; *) echo "build-standin-base: node_modules/.bin/node is $node_version, not Node 24 (run npm ci)" >&2; exit 1 ;; esac
npm_version=$(npm --version)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
echo "build-standin-base: debootstrap --variant=minbase bookworm from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" > "$work/debootstrap.log" 2>&1 || {
  tail -n 20 "$work/debootstrap.log" >&2
  exit 1
}
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb

# Node and npm where the official image has them: /usr/local/bin, /usr/local/lib/node_modules.
install -m 0755 "$node_binary" "$root/usr/local/bin/node"
(cd "$work" && npm pack --silent "npm@$npm_version" > /dev/null)
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# The official image's user: node, uid and gid 1000, home /home/node.
echo 'node:x:1000:' >> "$root/etc/group"
echo 'node:x:1000:1000::/home/node:/bin/bash' >> "$root/etc/passwd"
echo 'node:*:20000:0:99999:7:::' >> "$root/etc/shadow"
mkdir -p "$root/home/node" && chown 1000:1000 "$root/home/node"
mkdir -p "$root/usr/local/share/ca-certificates"
cp /etc/ssl/certs/ca-certificates.crt "$root/usr/local/share/ca-certificates/machine-ca-bundle.crt"

podman rmi --force "$tag" > /dev/null 2>&1 || true
tar -C "$root" -c . | podman import \
  --change "ENV NODE_VERSION=${node_version#v}" \
  --change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/machine-ca-bundle.crt' \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' \
  - "$tag" > /dev/null
echo "build-standin-base: $tag (Node $node_version, npm $npm_version, Debian bookworm minbase)"
