#!/bin/sh
# Runs after the package's files are in place (install and upgrade).
set -e

if ! getent group planreview >/dev/null; then
    groupadd --system planreview
fi
if ! getent passwd planreview >/dev/null; then
    useradd --system --gid planreview --home-dir /var/lib/planreview --no-create-home \
        --shell /usr/sbin/nologin --comment "planreview appliance" planreview
fi

install -d -o planreview -g planreview -m 0750 /var/lib/planreview
# Where planreview-backup.service writes (the timer is off until enabled).
install -d -o planreview -g planreview -m 0750 /var/backups/planreview
# The config may hold secrets: readable by the service, not by everyone.
chown root:planreview /etc/planreview /etc/planreview/config.yaml
chmod 0750 /etc/planreview
chmod 0640 /etc/planreview/config.yaml

if [ -d /run/systemd/system ]; then
    systemctl daemon-reload >/dev/null || true
    if [ -n "$2" ]; then
        # Upgrade: restart if it ran. A schema migration copies the
        # database first (planreview.db.schema-N.bak): see docs/operations.md.
        systemctl try-restart planreview.service >/dev/null || true
    else
        systemctl enable --now planreview.service >/dev/null || true
    fi
fi
exit 0
