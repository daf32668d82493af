#!/usr/bin/env bash
# Makes the Dockerfile's base image without pulling it: debootstraps a minimal Debian bookworm, puts
# this machine's Node 20 and npm in it where the official image has them (/usr/local), and imports
# it under the official name, so `podman build --pull=never` builds the real Dockerfile offline.
# Idempotent: does nothing when an image of that name exists (a pulled official one included).
# It is a stand-in, labelled as such; it is not the official image (no yarn, no docker-entrypoint.sh).
#
# usage: test/container/prepare-base-image.sh [IMAGE]   (default: the Dockerfile's FROM name)
# env:   DEBIAN_MIRROR (default http://deb.debian.org/debian)
set -euo pipefail

IMAGE="${1:-docker.io/library/node:20-bookworm-slim}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if podman image exists "$IMAGE"; then
  echo "base image $IMAGE exists; nothing to do"
  exit 0
fi
for tool in podman debootstrap node npm tar; do
  command -v "$tool" >/dev/null 2>&1 || { echo "prepare-base-image: needs $tool" >&2; exit 1; }
done
node_version="$(node --version)"
case "$node_version" in
  v20.*) ;;
  *) echo "prepare-base-image: this machine's node is $node_version; the image must carry Node 20" >&2; exit 1 ;;
esac
npm_dir="$(npm root -g)/npm"
[ -f "$npm_dir/bin/npm-cli.js" ] || { echo "prepare-base-image: npm not found at $npm_dir" >&2; exit 1; }

work="$(mktemp -d /var/tmp/portcullis-base.XXXXXX)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

started=$SECONDS
debootstrap --variant=minbase bookworm "$rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
echo "debootstrap: $((SECONDS - started)) s"

# Node where the official image has it, and npm beside it (npm's prefix is then /usr/local).
install -D -m 0755 "$(readlink -f "$(command -v node)")" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
# The official image's `node` user (uid 1000); the Dockerfile does not rely on it.
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

changes=(
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
  --change "ENV NODE_VERSION=${node_version#v}"
  --change 'CMD ["node"]'
  --change 'LABEL org.opencontainers.image.description=portcullis-test-stand-in-for-node-20-bookworm-slim'
)
# Where this machine reaches the npm registry through a TLS-inspecting proxy, Node trusts its CA
# through NODE_EXTRA_CA_CERTS; the stand-in carries that certificate bundle too, so `npm ci` in the
# build stage works here. The official image, on an open network, needs nothing of the kind.
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  install -D -m 0644 "$NODE_EXTRA_CA_CERTS" "$rootfs/usr/local/share/portcullis-stand-in/extra-ca.crt"
  changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/portcullis-stand-in/extra-ca.crt')
fi

rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb
started=$SECONDS
tar --numeric-owner -C "$rootfs" -c . | podman import --quiet "${changes[@]}" - "$IMAGE" >/dev/null
echo "podman import: $((SECONDS - started)) s"
echo "base image $IMAGE ready (node $node_version, npm $(node "$npm_dir/bin/npm-cli.js" --version))"
