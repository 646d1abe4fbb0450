#!/bin/sh
# Runs before the package's files are removed (not on upgrade).
set -e
if [ "$1" = "remove" ] && [ -d /run/systemd/system ]; then
    systemctl disable --now planreview.service >/dev/null || true
fi
exit 0
