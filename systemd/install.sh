#!/usr/bin/env bash
# Install Cribbage Companion as a service on Raspberry Pi OS (Bookworm or later). Run as root from a checkout:
#     sudo systemd/install.sh
# It creates the user "cribbage", a virtual environment in /opt/cribbage-companion/venv with the package and
# its [pi] extra (lgpio), /etc/cribbage-companion/config.toml if absent, and enables and starts the unit.
# Running it again upgrades the package and keeps the configuration.
set -euo pipefail

PREFIX=/opt/cribbage-companion
CONFIG_DIR=/etc/cribbage-companion
UNIT=cribbage-companion.service
SERVICE_USER=cribbage
SOURCE=$(cd "$(dirname "$0")/.." && pwd)

say() { printf '[install] %s\n' "$*"; }
die() { printf '[install] %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run me as root: sudo $0"
[ -f "$SOURCE/pyproject.toml" ] || die "run me from a Cribbage Companion checkout (no pyproject.toml in $SOURCE)"
command -v systemctl >/dev/null || die "systemd is needed (systemctl not found)"

say "Debian packages: python3-venv, i2c-tools"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-dev i2c-tools

if command -v raspi-config >/dev/null; then
    say "enabling I2C for the OLED"
    raspi-config nonint do_i2c 0 || say "could not enable I2C: use raspi-config, Interface Options, I2C"
fi

for group in gpio i2c dialout input; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    say "creating the user $SERVICE_USER"
    useradd --system --user-group --home-dir /var/lib/cribbage-companion --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
usermod --append --groups gpio,i2c,dialout,input "$SERVICE_USER"

say "virtual environment in $PREFIX/venv"
install -d -m 0755 "$PREFIX"
[ -x "$PREFIX/venv/bin/python" ] || python3 -m venv "$PREFIX/venv"
"$PREFIX/venv/bin/python" -m pip install --disable-pip-version-check -q --upgrade pip
"$PREFIX/venv/bin/python" -m pip install --disable-pip-version-check -q --upgrade "${SOURCE}[pi]"

install -d -m 0755 "$CONFIG_DIR"
if [ ! -e "$CONFIG_DIR/config.toml" ]; then
    say "writing $CONFIG_DIR/config.toml (edit it, then: sudo systemctl restart $UNIT)"
    cat > "$CONFIG_DIR/config.toml" <<'TOML'
# Cribbage Companion: only what differs from the packaged defaults (crib check-config prints them all).
[game]
players = ["Ann", "Bob"]

[devices]
scanner = "evdev"     # "serial" for a scanner in USB-CDC mode, "none" without one
TOML
fi
"$PREFIX/venv/bin/crib" check-config "$CONFIG_DIR/config.toml" >/dev/null \
    || die "the configuration has errors (above): fix $CONFIG_DIR/config.toml and run me again"

say "installing and starting $UNIT"
install -m 0644 "$SOURCE/systemd/$UNIT" "/etc/systemd/system/$UNIT"
systemctl daemon-reload
systemctl enable "$UNIT"
systemctl restart "$UNIT"
say "done: systemctl status $UNIT; journalctl -u $UNIT -f"
