#!/usr/bin/env bash
# The container step of CI (.ci/run runs it after `npm test`): builds the image from the checkout and from the
# installed package on a stand-in for the official Node base (no public image registry is reached here), then runs,
# through a published port, the scenario matrix and verify's checks against it (the `container` target of test/support/matrix.ts) and the image's
# own tests (test/container/*.test.ts), compose.replicas.yaml among them on stand-ins for Redis and HAProxy. Any failure
# fails the step; nothing is skipped. Prints the image's size and the time each phase took.
# PETSTORE_SIM_REUSE_BASE=1 keeps a stand-in base built by an earlier local run (CI always builds it afresh).
set -euo pipefail
cd "$(dirname "$0")/../.."
export CONTAINERS_CONF="$PWD/test/container/containers.conf"
base=localhost/node:24-bookworm-slim-standin
image=localhost/petstore-sim:ci
installed_image=localhost/petstore-sim:ci-installed
redis_image=localhost/redis:7-standin
haproxy_image=localhost/haproxy:standin
seconds() { date +%s.%N; }
elapsed() { awk -v from="$1" -v to="$(seconds)" 'BEGIN { printf "%.1f s", to - from }'; }

# netavark with aardvark-dns: the network stack (netavark sets containers' networks up with iptables) whose networks resolve the containers' names (compose.replicas.yaml's
# load balancer finds the replicas by name). podman only recommends netavark, and CNI's has no DNS without a plugin.
missing=()
for tool in podman runc debootstrap podman-compose iptables; do command -v "$tool" > /dev/null || missing+=("$tool"); done
for helper in netavark aardvark-dns; do [ -x "/usr/lib/podman/$helper" ] || missing+=("$helper"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "container step: installing ${missing[*]} from Debian"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap podman-compose netavark aardvark-dns iptables > /dev/null
fi
echo "container step: $(podman --version), runc $(runc --version | head -n 1 | awk '{ print $3 }')"

# Whatever a failed run left: test containers (by label), the tarball, podman's API service (for Testcontainers).
service_dir=
service_pid=
cleanup() {
  if [ -n "$service_pid" ]; then kill "$service_pid" 2> /dev/null || true; fi
  podman ps --all --quiet --filter label=petstore-sim-test=1 | xargs --no-run-if-empty podman rm --force --volumes > /dev/null 2>&1 || true
  rm -rf petstore-sim-*.tgz test/container/generated
  if [ -n "$service_dir" ]; then rm -rf "$service_dir"; fi
}
trap cleanup EXIT
cleanup
service_dir=$(mktemp -d)

# Podman's Docker-compatible API on a socket of this run's own, for the Testcontainers recipe (docs/ci.md).
podman system service --time=0 "unix://$service_dir/podman.sock" > "$service_dir/service.log" 2>&1 &
service_pid=$!
export DOCKER_HOST="unix://$service_dir/podman.sock"
for attempt in $(seq 100); do [ -S "$service_dir/podman.sock" ] && break; sleep 0.1; done
[ -S "$service_dir/podman.sock" ] || { echo "container step: podman system service did not start" >&2; cat "$service_dir/service.log" >&2; exit 1; }

started=$(seconds)
if [ "${PETSTORE_SIM_REUSE_BASE:-}" = 1 ] && [ "${CI:-}" != true ] && podman image exists "$base"; then
  echo "container step: reusing $base (PETSTORE_SIM_REUSE_BASE=1)"
else
  bash test/container/build-standin-base.sh "$base"
fi
echo "container step: stand-in base in $(elapsed "$started")"

# Stand-ins for the official redis and haproxy images of compose.replicas.yaml: Debian's packages on the same base.
started=$(seconds)
for standin in redis:"$redis_image" haproxy:"$haproxy_image"; do
  podman build --quiet --build-arg "BASE_IMAGE=$base" --tag "${standin#*:}" \
    --file "test/container/standin-${standin%%:*}.Containerfile" test/container > /dev/null
done
echo "container step: stand-ins for redis and haproxy in $(elapsed "$started")"

# The image both ways users build it, one command each (docs/ci.md#the-container-image): from this checkout, with no
# `npm pack` first (the Containerfile's build stage installs, builds and packs), and from the package installed in a
# scratch project (`podman build node_modules/petstore-sim`, its shipped dist packed as it is). Each within 25 MB of
# its base: the package, its dependencies and msw, nothing of the build stage.
base_size=$(podman image inspect --format '{{.Size}}' "$base")
max_over=25000000
build_image() { # <tag> <context>
  local from
  from=$(seconds)
  podman build --quiet --format docker --build-arg "BASE_IMAGE=$base" --tag "$1" "$2" > /dev/null
  local size
  size=$(podman image inspect --format '{{.Size}}' "$1")
  awk -v size="$size" -v base="$base_size" -v took="$(elapsed "$from")" -v tag="$1" -v from="$2" \
    'BEGIN { printf "container step: image %s from %s built in %s: %.1f MB (%.1f MB over the base)\n", tag, from, took, size / 1e6, (size - base) / 1e6 }'
  if [ $((size - base_size)) -gt "$max_over" ]; then
    echo "container step: $1 is more than $((max_over / 1000000)) MB over its base" >&2
    exit 1
  fi
}
build_image "$image" .
scratch=$(mktemp -d)
npm pack --silent --pack-destination "$scratch" > /dev/null
(cd "$scratch" && echo '{ "name": "platform-team", "private": true }' > package.json \
  && npm install --silent --no-audit --no-fund --prefer-offline ./petstore-sim-*.tgz > /dev/null)
build_image "$installed_image" "$scratch/node_modules/petstore-sim"
rm -rf "$scratch"

started=$(seconds)
PETSTORE_SIM_TEST_IMAGE="$image" PETSTORE_SIM_TEST_INSTALLED_IMAGE="$installed_image" PETSTORE_SIM_TEST_REDIS_IMAGE="$redis_image" PETSTORE_SIM_TEST_HAPROXY_IMAGE="$haproxy_image" \
  npx vitest run --config test/container/vitest.config.ts
echo "container step: tests in $(elapsed "$started")"
