#!/usr/bin/env bash
# Install Cribbage Companion as a service on Raspberry Pi OS Bookworm (Python 3.11) or Trixie (Python 3.13), on a
# Pi Zero 2 W, 3, 4 or 5. Run as root from a checkout:
#     sudo systemd/install.sh            install, or upgrade: run it again at any time (it changes only what differs)
#     systemd/install.sh --dry-run       print the plan and change nothing (no root needed)
#     sudo systemd/install.sh --phones   also let phones on the home network scan: the page on the network, over
#                                        HTTPS too, and the board found as cribbage.local (avahi, hostname cribbage)
# The compiled parts come from the distribution (python3-lgpio, python3-gpiozero, python3-evdev, ...), so nothing is
# built on the Pi; a virtual environment made with --system-site-packages sees them and holds the rest from PyPI.
set -euo pipefail

PREFIX=/opt/cribbage-companion
CONFIG_DIR=${CRIB_CONFIG_DIR:-/etc/cribbage-companion}
UNIT=cribbage-companion.service
SERVICE_USER=cribbage
MODULES_LOAD=/etc/modules-load.d/cribbage-companion.conf
OS_RELEASE=${CRIB_OS_RELEASE:-/etc/os-release}
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
# Debian / Raspberry Pi OS packages: the pin library and gpiozero (lgpio has no PyPI wheel for Python 3.13),
# evdev (builds with a compiler from PyPI), the other compiled or hardware-facing libraries, and num2words (its
# docopt has no wheel on PyPI).
APT_PACKAGES=(python3-venv python3-lgpio python3-gpiozero python3-evdev python3-serial python3-smbus2
              python3-numpy python3-pil python3-num2words i2c-tools)
# Loaded at boot, so that their device groups are in /proc/devices when the unit starts: DeviceAllow=char-ttyACM
# (major 166) and char-ttyUSB (188) match only groups that exist then, and i2c-dev makes /dev/i2c-*.
MODULES=(cdc_acm usbserial i2c-dev)
I2C_SPEED=dtparam=i2c_arm_baudrate=400000

# --phones: mDNS answers for cribbage.local (avahi-daemon, on Raspberry Pi OS already), and the unit may use the
# network (it has none otherwise)
PHONES_HOSTNAME=cribbage
NETWORK_DROP_IN=/etc/systemd/system/$UNIT.d/phones.conf
# [voice] enabled = true in the configuration: espeak-ng and aplay, and the sound card for the service
VOICE_DROP_IN=/etc/systemd/system/$UNIT.d/voice.conf
VOICE_MODULES_LOAD=/etc/modules-load.d/cribbage-companion-voice.conf

DRY_RUN=""
PHONES=""
for argument in "$@"; do
    case "$argument" in
        --dry-run) DRY_RUN=1 ;;
        --phones) PHONES=1 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) printf '[install] unknown option %s: use --dry-run, --phones or nothing\n' "$argument" >&2; exit 2 ;;
    esac
done
[ -z "$PHONES" ] || APT_PACKAGES+=(avahi-daemon)
VOICE=$(python3 - "$CONFIG_DIR/config.toml" <<'PY' 2>/dev/null || true
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as file:
        print("1" if tomllib.load(file).get("voice", {}).get("enabled") is True else "")
except OSError:
    print("")
PY
)
[ -z "$VOICE" ] || APT_PACKAGES+=(espeak-ng alsa-utils)

say() { printf '[install] %s\n' "$*"; }
die() { printf '[install] %s\n' "$*" >&2; exit 1; }
run() {  # a command that changes the system: shown, and run unless --dry-run
    printf '[install]   $ %s\n' "$*"
    [ -n "$DRY_RUN" ] || "$@"
}
write_file() {  # write_file PATH MODE: stdin into PATH, only when it differs
    local path=$1 mode=$2 content
    content=$(cat)
    if [ -f "$path" ] && [ "$(cat "$path")" = "$content" ]; then
        say "$path is up to date"
        return
    fi
    say "writing $path"
    [ -n "$DRY_RUN" ] || { printf '%s\n' "$content" > "$path" && chmod "$mode" "$path"; }
}

[ -n "$DRY_RUN" ] || [ "$(id -u)" -eq 0 ] || die "run me as root: sudo $0 (or $0 --dry-run to see the plan)"
[ -f "$SOURCE/pyproject.toml" ] || die "run me from a Cribbage Companion checkout (no pyproject.toml in $SOURCE)"
command -v systemctl >/dev/null || [ -n "$DRY_RUN" ] || die "systemd is needed (systemctl not found)"

# shellcheck source=/dev/null
CODENAME=$(. "$OS_RELEASE" 2>/dev/null && printf '%s' "${VERSION_CODENAME:-unknown}")
case "$CODENAME" in
    bookworm|trixie) say "Raspberry Pi OS / Debian $CODENAME${DRY_RUN:+ (dry run: nothing is changed)}" ;;
    *) say "warning: $CODENAME is neither Bookworm nor Trixie; trying anyway" ;;
esac

say "Debian packages: ${APT_PACKAGES[*]}"
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${APT_PACKAGES[@]}"

say "kernel modules at boot: ${MODULES[*]}"
printf '%s\n' "# Cribbage Companion: serial ports for the Pico and scanners, and the I2C bus, from boot" "${MODULES[@]}" \
    | write_file "$MODULES_LOAD" 0644
run modprobe -a "${MODULES[@]}"

BOOT_CONFIG=/boot/firmware/config.txt
[ -f "$BOOT_CONFIG" ] || BOOT_CONFIG=/boot/config.txt
if command -v raspi-config >/dev/null; then
    say "enabling I2C for the OLED"
    run raspi-config nonint do_i2c 0 || say "could not enable I2C: use raspi-config, Interface Options, I2C"
fi
if [ ! -f "$BOOT_CONFIG" ]; then
    say "no $BOOT_CONFIG (not a Raspberry Pi?): the I2C speed is left as it is"
elif grep -qx "$I2C_SPEED" "$BOOT_CONFIG"; then
    say "I2C at 400 kHz: $BOOT_CONFIG says so already"
else
    say "I2C at 400 kHz in $BOOT_CONFIG (an OLED frame in a quarter of the time; from the next boot)"
    [ -n "$DRY_RUN" ] || printf '%s\n' "$I2C_SPEED" >> "$BOOT_CONFIG"
fi

for group in gpio i2c dialout input; do
    getent group "$group" >/dev/null || run groupadd --system "$group"
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    say "creating the user $SERVICE_USER"
    run useradd --system --user-group --home-dir /var/lib/cribbage-companion --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
fi
run usermod --append --groups gpio,i2c,dialout,input "$SERVICE_USER"

VENV=$PREFIX/venv
if [ -x "$VENV/bin/python" ] && grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg" \
        && [ "$("$VENV/bin/python" -c 'import sys; print(sys.version_info[:2])')" = \
             "$(python3 -c 'import sys; print(sys.version_info[:2])')" ]; then
    say "virtual environment $VENV: kept (it sees the system's packages and runs this python3)"
else
    say "virtual environment $VENV, seeing the system's packages (lgpio, gpiozero, evdev ...)"
    run install -d -m 0755 "$PREFIX"
    run python3 -m venv --clear --system-site-packages "$VENV"
fi
say "the package from $SOURCE (pip takes what the system lacks from PyPI, all as built wheels)"
run "$VENV/bin/python" -m pip install --disable-pip-version-check -q --upgrade --upgrade-strategy only-if-needed \
    "${SOURCE}[pi]"

run install -d -m 0755 "$CONFIG_DIR"
if [ ! -e "$CONFIG_DIR/config.toml" ]; then
    write_file "$CONFIG_DIR/config.toml" 0644 <<'TOML'
# Cribbage Companion: only what differs from the packaged defaults (crib check-config prints them all).
[game]
players = ["Ann", "Bob"]

[devices]
scanner = "evdev"     # "serial" for a scanner in USB-CDC mode, "none" without one
TOML
    if [ -n "$PHONES" ]; then
        [ -n "$DRY_RUN" ] || cat >> "$CONFIG_DIR/config.toml" <<'TOML'

[web]
listen = "0.0.0.0:8121"   # the page on the home network
https = "0.0.0.0:8443"    # and over HTTPS, for phones' cameras: https://cribbage.local:8443/scan
TOML
        say "the page on the home network: [web] listen and https in $CONFIG_DIR/config.toml"
    fi
    say "edit $CONFIG_DIR/config.toml, then: sudo systemctl restart $UNIT"
else
    say "$CONFIG_DIR/config.toml: kept"
    [ -z "$PHONES" ] || say "for phones, set [web] listen = \"0.0.0.0:8121\" and https = \"0.0.0.0:8443\" in it"
fi
run "$VENV/bin/crib" check-config "$CONFIG_DIR/config.toml" \
    || die "the configuration has errors (above): fix $CONFIG_DIR/config.toml and run me again"

if [ -n "$PHONES" ]; then
    say "the board found as $PHONES_HOSTNAME.local (avahi answers for the host's name)"
    if [ "$(hostname)" = "$PHONES_HOSTNAME" ]; then
        say "the hostname is $PHONES_HOSTNAME already"
    elif command -v raspi-config >/dev/null; then
        run raspi-config nonint do_hostname "$PHONES_HOSTNAME"  # /etc/hostname and /etc/hosts together
    else
        run hostnamectl set-hostname "$PHONES_HOSTNAME"
    fi
    run install -d -m 0755 "$(dirname "$NETWORK_DROP_IN")"
    write_file "$NETWORK_DROP_IN" 0644 <<'UNIT'
# Cribbage Companion with phones as scanners (install.sh --phones): the page on the home network
[Service]
PrivateNetwork=no
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
UNIT
elif [ -e "$NETWORK_DROP_IN" ]; then
    say "no --phones: the unit loses the network again"
    run rm "$NETWORK_DROP_IN"
fi

if [ -n "$VOICE" ]; then
    say "[voice] is on: the service may use the sound card (group audio, ALSA's devices)"
    getent group audio >/dev/null || run groupadd --system audio
    run usermod --append --groups audio "$SERVICE_USER"
    printf '%s\n' "# Cribbage Companion's voice: ALSA's device group in /proc/devices from boot" snd \
        | write_file "$VOICE_MODULES_LOAD" 0644
    run modprobe snd
    run install -d -m 0755 "$(dirname "$VOICE_DROP_IN")"
    write_file "$VOICE_DROP_IN" 0644 <<'UNIT'
# Cribbage Companion's voice ([voice] enabled): espeak-ng through aplay on the sound card
[Service]
SupplementaryGroups=audio
DeviceAllow=char-alsa rw
UNIT
elif [ -e "$VOICE_DROP_IN" ]; then
    say "[voice] is off: the unit loses the sound card again"
    run rm "$VOICE_DROP_IN"
fi

say "installing and starting $UNIT"
write_file "/etc/systemd/system/$UNIT" 0644 < "$SOURCE/systemd/$UNIT"
run systemctl daemon-reload
run systemctl enable "$UNIT"
run systemctl restart "$UNIT"
say "done: systemctl status $UNIT; journalctl -u $UNIT -f${DRY_RUN:+ (dry run: nothing was changed)}"
