#!/bin/sh
# Runs after the package's files are removed. The data folder
# /var/lib/planreview is never deleted here, not even on purge: it holds
# the partners' plans and findings. Delete it by hand once it is backed up.
set -e
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload >/dev/null || true
fi
if [ "$1" = "purge" ]; then
    echo "planreview: /var/lib/planreview (data) and the planreview user were kept; remove them by hand if no longer needed." >&2
fi
exit 0
