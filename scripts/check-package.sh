#!/usr/bin/env bash
# Checks what scripts/release.sh built: each .deb lists the binary, the
# systemd unit, the config (as a conffile) and the data folder; the host's
# binary reports the stamped version; the packaged config loads with the
# packaged data folder; the unit passes `systemd-analyze verify` where
# systemd is installed.
#
#   scripts/check-package.sh dist/ 1.2.0
set -euo pipefail
DIST=${1:?usage: check-package.sh DIST VERSION}
VERSION=${2:?usage: check-package.sh DIST VERSION}
fail() { echo "check-package: $*" >&2; exit 1; }

debs=("$DIST"/planreview_"$VERSION"_*.deb)
[ -e "${debs[0]}" ] || fail "no planreview_${VERSION}_*.deb in $DIST"
for deb in "${debs[@]}"; do
  echo "== $deb"
  contents=$(dpkg-deb --contents "$deb")
  for path in ./usr/bin/planreview ./usr/lib/systemd/system/planreview.service ./usr/lib/systemd/system/planreview-backup.service \
      ./usr/lib/systemd/system/planreview-backup.timer ./etc/planreview/config.yaml ./var/lib/planreview/; do
    grep -q " $path\$" <<<"$contents" || fail "$deb does not contain $path"
  done
  [ "$(dpkg-deb --field "$deb" Version)" = "$VERSION" ] || fail "$deb: version is not $VERSION"
  work=$(mktemp -d)
  dpkg-deb --control "$deb" "$work/control"
  grep -qx /etc/planreview/config.yaml "$work/control/conffiles" || fail "$deb: config.yaml is not a conffile"
  for script in postinst prerm postrm; do
    sh -n "$work/control/$script" || fail "$deb: $script does not parse"
  done
  dpkg-deb -x "$deb" "$work/root"
  arch=$(dpkg-deb --field "$deb" Architecture)
  if [ "$arch" = "$(dpkg --print-architecture 2>/dev/null || echo none)" ]; then
    bin="$work/root/usr/bin/planreview"
    "$bin" version | grep -q "^planreview $VERSION (commit " || fail "$deb: version not stamped: $("$bin" version | head -1)"
    env -u PLANREVIEW_DATA_DIR "$bin" config show --config "$work/root/etc/planreview/config.yaml" |
      grep -Eq '^data\.dir +/var/lib/planreview +file$' || fail "$deb: packaged config does not set data.dir"
    if command -v systemd-analyze >/dev/null; then
      # verify checks that ExecStart exists: point it at the extracted binary.
      units=()
      for unit in planreview.service planreview-backup.service planreview-backup.timer; do
        sed "s|/usr/bin/planreview|$bin|" "$work/root/usr/lib/systemd/system/$unit" > "$work/$unit"
        units+=("$work/$unit")
      done
      # Warnings (an unknown key, a key in the wrong section) fail too.
      out=$(cd "$work" && systemd-analyze verify --man=no "${units[@]}" 2>&1) || fail "$deb: systemd-analyze verify refused a unit: $out"
      [ -z "$out" ] || fail "$deb: systemd-analyze verify: $out"
      echo "systemd-analyze verify: ok (${units[*]##*/})"
    else
      echo "systemd-analyze not installed: unit not verified"
    fi
  fi
  rm -rf "$work"
  echo "ok"
done
