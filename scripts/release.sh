#!/usr/bin/env bash
# Release build: static Linux binaries for amd64 and arm64 with version,
# commit and build date stamped, a .deb for each (nfpm), and the build
# context of a FROM-scratch container image.
#
#   VERSION=1.2.0 scripts/release.sh            # output in dist/
#   VERSION=1.2.0 DIST=/tmp/out scripts/release.sh
#
# VERSION defaults to `git describe` (or 0.0.0-dev outside git); the build
# date is the commit's date, so the same commit builds the same bytes.
# Needs only Go: nfpm is run from the module proxy at a pinned version.
set -euo pipefail
cd "$(dirname "$0")/.."

NFPM=github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.44.1
DIST=${DIST:-dist}
ARCHES=${ARCHES:-"amd64 arm64"}
COMMIT=$(git rev-parse HEAD 2>/dev/null || echo unknown)
if [ -z "${VERSION:-}" ]; then
  VERSION=$(git describe --tags --always --dirty 2>/dev/null || echo 0.0.0-dev)
fi
VERSION=${VERSION#v}
# Debian versions must start with a digit.
case "$VERSION" in [0-9]*) ;; *) VERSION="0.0.0~git.$VERSION" ;; esac
BUILD_DATE=$(git log -1 --format=%cI 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
  BUILD_DATE=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
fi

mkdir -p "$DIST"
DIST=$(cd "$DIST" && pwd)
LDFLAGS="-s -w -X planreview/cmd.version=$VERSION -X planreview/cmd.commit=$COMMIT -X planreview/cmd.buildDate=$BUILD_DATE"

# The packaged config: the documented example with the packaged data folder.
sed 's|^  dir: ./data$|  dir: /var/lib/planreview|' config.example.yaml > "$DIST/config.yaml"
grep -q '^  dir: /var/lib/planreview$' "$DIST/config.yaml" || { echo "config.example.yaml: data.dir line not found" >&2; exit 1; }

mkdir -p "$DIST/container/data"
for arch in $ARCHES; do
  out="$DIST/planreview_linux_$arch"
  mkdir -p "$out"
  echo "== build linux/$arch"
  CGO_ENABLED=0 GOOS=linux GOARCH=$arch go build -trimpath -buildvcs=false -ldflags "$LDFLAGS" -o "$out/planreview" .
  echo "== package planreview_${VERSION}_$arch.deb"
  # nfpm expands variables in some fields only: fill them all in first.
  sed -e "s|\${DIST}|$DIST|g" -e "s|\${GOARCH}|$arch|g" -e "s|\${VERSION}|$VERSION|g" \
    packaging/nfpm.yaml > "$DIST/nfpm-$arch.yaml"
  go run $NFPM package --config "$DIST/nfpm-$arch.yaml" --packager deb --target "$DIST/"
done
(cd "$DIST" && sha256sum ./*.deb planreview_linux_*/planreview > SHA256SUMS)
echo "== done: $DIST"
cat "$DIST/SHA256SUMS"
