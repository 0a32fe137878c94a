#!/usr/bin/env bash
# Install Cribbage Companion as a service on Raspberry Pi OS Bookworm (Python 3.11) or Trixie (Python 3.13), on a
# Pi Zero 2 W, 3, 4 or 5; or on Debian, Ubuntu, DietPi or Armbian on a Pi. Run as root from a checkout:
#     sudo systemd/install.sh            install, or upgrade: run it again at any time (it changes only what differs)
#     systemd/install.sh --dry-run       print the plan and change nothing (no root needed)
#     sudo systemd/install.sh --phones   also let phones on the home network scan: the page on the network, over
#                                        HTTPS too, and the board found as cribbage.local (avahi, hostname cribbage)
# An image builder (pi-gen, a chroot or container: no systemd as PID 1, no modules of the running kernel) runs it
# too: what needs a booted Pi (loading modules, starting the service) is left for the first boot, and said so.
# The compiled parts come from the distribution (the pin library, python3-gpiozero, python3-evdev, ...), so nothing
# is built on the Pi; a virtual environment made with --system-site-packages sees them and holds the rest from PyPI.
# The pin library is lgpio where apt has it (Raspberry Pi OS, Ubuntu), else RPi.GPIO (Debian, DietPi, Armbian:
# python3-rpi.gpio, devices.pin_factory = "rpigpio"); a Pi 5 needs lgpio.
set -euo pipefail

PREFIX=/opt/cribbage-companion
CONFIG_DIR=${CRIB_CONFIG_DIR:-/etc/cribbage-companion}
UNIT=cribbage-companion.service
SERVICE_USER=cribbage
MODULES_LOAD=/etc/modules-load.d/cribbage-companion.conf
OS_RELEASE=${CRIB_OS_RELEASE:-/etc/os-release}
MODEL=${CRIB_MODEL:-/proc/device-tree/model}
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
# Debian / Raspberry Pi OS packages: gpiozero and the pin library chosen below (lgpio has no PyPI wheel for Python
# 3.13, RPi.GPIO builds with a compiler), evdev (builds with a compiler from PyPI), the other compiled or
# hardware-facing libraries, and num2words (its docopt has no wheel on PyPI).
APT_PACKAGES=(python3-venv python3-gpiozero python3-evdev python3-serial python3-smbus2
              python3-numpy python3-pil python3-num2words i2c-tools)
declare -A PIN_PACKAGES=([lgpio]=python3-lgpio [rpigpio]=python3-rpi.gpio)  # devices.pin_factory: its Debian package
# Loaded at boot, so that their device groups are in /proc/devices when the unit starts: DeviceAllow=char-ttyACM
# (major 166) and char-ttyUSB (188) match only groups that exist then, and i2c-dev makes /dev/i2c-*.
MODULES=(cdc_acm usbserial i2c-dev)
I2C_ON=dtparam=i2c_arm=on
I2C_SPEED=dtparam=i2c_arm_baudrate=400000
BOOT_CONFIG=${CRIB_BOOT_CONFIG:-/boot/firmware/config.txt}
# A booted system has systemd as PID 1 (sd_booted: this directory) and its kernel's modules; an image builder's
# root has neither.
SYSTEMD_RUNTIME=${CRIB_SYSTEMD_RUNTIME:-/run/systemd/system}
KERNEL_MODULES=${CRIB_KERNEL_MODULES:-/lib/modules/$(uname -r)}

# --phones: mDNS answers for cribbage.local (avahi-daemon, on Raspberry Pi OS already), and the unit may use the
# network (it has none otherwise)
PHONES_HOSTNAME=cribbage
OLD_NETWORK_DROP_IN=/etc/systemd/system/$UNIT.d/phones.conf
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
FIRST_BOOT=()  # what only a booted Pi can do: said at the end
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
    [ -n "$DRY_RUN" ] || { mkdir -p "$(dirname "$path")" && printf '%s\n' "$content" > "$path" && chmod "$mode" "$path"; }
}

BOOTED=""
[ ! -d "$SYSTEMD_RUNTIME" ] || BOOTED=1
[ -n "$DRY_RUN" ] || [ "$(id -u)" -eq 0 ] || die "run me as root: sudo $0 (or $0 --dry-run to see the plan)"
[ -f "$SOURCE/pyproject.toml" ] || die "run me from a Cribbage Companion checkout (no pyproject.toml in $SOURCE)"
command -v systemctl >/dev/null || [ -n "$DRY_RUN" ] || die "systemd is needed (systemctl not found)"

# shellcheck source=/dev/null
CODENAME=$(. "$OS_RELEASE" 2>/dev/null && printf '%s' "${VERSION_CODENAME:-unknown}")
case "$CODENAME" in
    bookworm|trixie) say "Raspberry Pi OS / Debian $CODENAME${DRY_RUN:+ (dry run: nothing is changed)}" ;;
    *) say "warning: $CODENAME is neither Bookworm nor Trixie; trying anyway" ;;
esac
[ -n "$BOOTED" ] || say "no systemd running here (an image builder's root?): the service starts at the first boot"

run apt-get update -qq
has_package() {  # whether apt can install this package (from the lists as they stand: a dry run updates none)
    local policy candidate='Candidate: [^(]'  # not "(none)"; read whole: grep -q would end apt-cache with SIGPIPE
    policy=$(apt-cache policy "$1" 2>/dev/null) && [[ "$policy" =~ $candidate ]]
}
board=""
[ ! -r "$MODEL" ] || board=$(tr -d '\0' < "$MODEL")  # "Raspberry Pi 5 Model B Rev 1.0"; none off a Pi
if has_package python3-lgpio; then
    PIN_FACTORY=lgpio
    say "pin library: lgpio (python3-lgpio), the one every Pi takes"
elif [[ "$board" == "Raspberry Pi 5"* || "$board" == "Raspberry Pi Compute Module 5"* ]]; then
    die "this $board needs the lgpio pin library (python3-lgpio), which apt cannot find here: RPi.GPIO cannot drive \
the Pi 5's RP1 chip. Raspberry Pi OS has it; on Debian, add Raspberry Pi's archive and run me again:
    curl -fsSL https://archive.raspberrypi.com/debian/raspberrypi.gpg.key | gpg --dearmor -o /usr/share/keyrings/raspberrypi.gpg
    echo 'deb [signed-by=/usr/share/keyrings/raspberrypi.gpg] https://archive.raspberrypi.com/debian $CODENAME main' > /etc/apt/sources.list.d/raspberrypi.list
    apt-get update"
elif has_package python3-rpi.gpio; then
    PIN_FACTORY=rpigpio
    say "pin library: RPi.GPIO (python3-rpi.gpio; apt has no python3-lgpio here), devices.pin_factory = \"rpigpio\""
else
    die "apt finds neither python3-lgpio nor python3-rpi.gpio: the keypad and buttons need one of them (is this \
Raspberry Pi OS, Debian or Ubuntu on a Pi, with its package lists? apt-get update, then run me again)"
fi
APT_PACKAGES+=("${PIN_PACKAGES[$PIN_FACTORY]}")
say "Debian packages: ${APT_PACKAGES[*]}"
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${APT_PACKAGES[@]}"

say "kernel modules at boot: ${MODULES[*]}"
printf '%s\n' "# Cribbage Companion: serial ports for the Pico and scanners, and the I2C bus, from boot" "${MODULES[@]}" \
    | write_file "$MODULES_LOAD" 0644
if [ -d "$KERNEL_MODULES" ]; then
    run modprobe -a "${MODULES[@]}"
else
    say "no modules of the running kernel here ($KERNEL_MODULES): ${MODULES[*]} load at the first boot"
    FIRST_BOOT+=("the kernel modules ${MODULES[*]} load ($MODULES_LOAD)")
fi

[ -f "$BOOT_CONFIG" ] || [ -n "${CRIB_BOOT_CONFIG:-}" ] || BOOT_CONFIG=/boot/config.txt
if [ -n "$BOOTED" ] && command -v raspi-config >/dev/null; then  # on at once, and in config.txt
    say "enabling I2C for the OLED"
    run raspi-config nonint do_i2c 0 || say "could not enable I2C: use raspi-config, Interface Options, I2C"
fi
if [ ! -f "$BOOT_CONFIG" ]; then
    say "no /boot/firmware/config.txt or /boot/config.txt here: nothing turns I2C on for the OLED. On a Pi, add \
$I2C_ON and $I2C_SPEED to the firmware's config.txt (or turn I2C on as your system does) and reboot"
else
    declare -A WHY=(["$I2C_ON"]="the OLED's I2C bus on" ["$I2C_SPEED"]="I2C at 400 kHz: an OLED frame in a quarter \
of the time")
    for line in "$I2C_ON" "$I2C_SPEED"; do
        if grep -qx "$line" "$BOOT_CONFIG"; then
            say "$line: $BOOT_CONFIG says so already"
        else
            say "$line in $BOOT_CONFIG (${WHY[$line]}; from the next boot)"
            [ -n "$DRY_RUN" ] || printf '%s\n' "$line" >> "$BOOT_CONFIG"
            FIRST_BOOT+=("$line takes effect")
        fi
    done
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
    say "virtual environment $VENV, seeing the system's packages ($PIN_FACTORY, gpiozero, evdev ...)"
    run install -d -m 0755 "$PREFIX"
    run python3 -m venv --clear --system-site-packages "$VENV"
fi
say "the package from $SOURCE (pip takes what the system lacks from PyPI, all as built wheels)"
PACKAGE="${SOURCE}[scanner]"  # evdev, which apt has installed
[ "$PIN_FACTORY" != lgpio ] || PACKAGE="${SOURCE}[pi]"  # evdev and lgpio
run "$VENV/bin/python" -m pip install --disable-pip-version-check -q --upgrade --upgrade-strategy only-if-needed \
    "$PACKAGE"

run install -d -m 0755 "$CONFIG_DIR"
if [ ! -e "$CONFIG_DIR/config.toml" ]; then
    write_file "$CONFIG_DIR/config.toml" 0644 <<TOML
# Cribbage Companion: only what differs from the packaged defaults (crib check-config prints them all).
[game]
players = ["Ann", "Bob"]

[devices]
scanner = "evdev"     # "serial" for a scanner in USB-CDC mode, "none" without one
pin_factory = "$PIN_FACTORY"
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
    grep -Eq "^pin_factory *= *\"$PIN_FACTORY\"" "$CONFIG_DIR/config.toml" || [ "$PIN_FACTORY" = lgpio ] \
        || say "warning: this system's pin library is $PIN_FACTORY: put pin_factory = \"$PIN_FACTORY\" under [devices] in \
$CONFIG_DIR/config.toml"
fi
run "$VENV/bin/crib" check-config "$CONFIG_DIR/config.toml" \
    || die "the configuration has errors (above): fix $CONFIG_DIR/config.toml and run me again"

if [ -n "$PHONES" ]; then
    say "the board found as $PHONES_HOSTNAME.local (avahi answers for the host's name)"
    if [ "$(hostname)" = "$PHONES_HOSTNAME" ]; then
        say "the hostname is $PHONES_HOSTNAME already"
    elif command -v raspi-config >/dev/null; then
        run raspi-config nonint do_hostname "$PHONES_HOSTNAME"  # /etc/hostname and /etc/hosts together
    elif [ -n "$BOOTED" ]; then
        run hostnamectl set-hostname "$PHONES_HOSTNAME"
    else  # hostnamectl needs systemd running: the files it would write
        printf '%s\n' "$PHONES_HOSTNAME" | write_file /etc/hostname 0644
        run sed -i "s/^127\.0\.1\.1\s.*/127.0.1.1\t$PHONES_HOSTNAME/" /etc/hosts
        FIRST_BOOT+=("the host is named $PHONES_HOSTNAME")
    fi
fi
if [ -e "$OLD_NETWORK_DROP_IN" ]; then  # an earlier --phones gave the unit the network it now always has
    run rm "$OLD_NETWORK_DROP_IN"
fi

if [ -n "$VOICE" ]; then
    say "[voice] is on: the service may use the sound card (group audio, ALSA's devices)"
    getent group audio >/dev/null || run groupadd --system audio
    run usermod --append --groups audio "$SERVICE_USER"
    printf '%s\n' "# Cribbage Companion's voice: ALSA's device group in /proc/devices from boot" snd \
        | write_file "$VOICE_MODULES_LOAD" 0644
    if [ -d "$KERNEL_MODULES" ]; then run modprobe snd; else FIRST_BOOT+=("the sound card's module snd loads"); fi
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
if [ -n "$BOOTED" ]; then
    run systemctl daemon-reload
    run systemctl enable "$UNIT"
    run systemctl restart "$UNIT"
else  # enable only links files, which works without systemd running; starting waits for the boot
    run systemctl enable "$UNIT"
    FIRST_BOOT+=("$UNIT starts")
fi
if [ "${#FIRST_BOOT[@]}" -gt 0 ]; then
    say "left for the next boot (an image's first):"
    for item in "${FIRST_BOOT[@]}"; do say "  - $item"; done
fi
say "done: systemctl status $UNIT; journalctl -u $UNIT -f${DRY_RUN:+ (dry run: nothing was changed)}"
