# What the strip shows: the host's picture, the effects played over it, the waiting pattern when the host is
# silent, the power-on self-test, and the current limit. Pure logic: time comes in as milliseconds, the LEDs go
# out through any object with `pixels[i] = (r, g, b)` and `pixels.write()` (MicroPython's neopixel.NeoPixel).

# Current figures (PROTOCOL.md, "Power"): a WS2812B draws about 1 mA doing nothing and up to 20 mA per colour
# channel at full duty; the Pico itself about 25 mA.
IDLE_MA_PER_LED = 1
CHANNEL_MA = 20
PICO_MA = 25
MAX_EFFECTS = 16
WAITING_SPACING = 6
WAITING_PERIOD_MS = 4000
WAITING_PEAK = 24
SELFTEST_PHASE_MS = 400
FRAME_MS = 20


def light_budget_ma(led_count, max_current_ma):
    """Milliamps left for light once the Pico and every idle LED are fed; below 1 the supply is too small."""
    return max_current_ma - PICO_MA - IDLE_MA_PER_LED * led_count


class Walk:
    def __init__(self, color, step_ms, leds):
        self.color = color
        self.step_ms = max(1, step_ms)
        self.leds = leds
        self.duration = self.step_ms * len(leds)

    def draw(self, out, elapsed):
        lit = min(elapsed // self.step_ms, len(self.leds) - 1)
        for index in self.leds:
            out[index] = (0, 0, 0)
        out[self.leds[lit]] = self.color


class Flash:
    def __init__(self, color, times, period_ms, leds):
        self.color = color
        self.period = max(2, period_ms)
        self.leds = leds
        self.duration = self.period * times

    def draw(self, out, elapsed):
        color = self.color if elapsed % self.period < self.period // 2 else (0, 0, 0)
        for index in self.leds:
            out[index] = color


class Celebrate:
    """A bright run of four chasing along the winner's track over a dim track."""

    STEP_MS = 60

    def __init__(self, color, duration_ms, leds):
        self.color = color
        self.duration = duration_ms
        self.leds = leds
        self.dim = (color[0] // 8, color[1] // 8, color[2] // 8)

    def draw(self, out, elapsed):
        head = elapsed // self.STEP_MS
        for place in range(len(self.leds)):
            out[self.leds[place]] = self.color if (head - place) % 8 < 4 else self.dim


class Lights:
    def __init__(self, pixels, led_count, max_current_ma, now):
        self.pixels = pixels
        self.count = led_count
        self.picture = [(0, 0, 0)] * led_count
        self.have_picture = False
        self.brightness = 64
        self.budget_ma = light_budget_ma(led_count, max_current_ma)
        self.effects = []
        self.effect_start = now
        self.selftest_until = now + 3 * SELFTEST_PHASE_MS
        self.waiting = True
        self.shown = None
        self.last_render = None
        self.dirty = True

    # -- what the host sets

    def set_picture(self, colors):
        self.picture = list(colors)
        self.have_picture = True
        self.dirty = True

    def set_leds(self, changes):
        for index, color in changes:
            self.picture[index] = color
        self.have_picture = True
        self.dirty = True

    def set_brightness(self, level):
        self.brightness = level
        self.dirty = True

    def set_waiting(self, waiting):
        if waiting != self.waiting:
            self.waiting = waiting
            self.dirty = True

    def halt(self, now):
        """The firmware failed: the dim waiting pattern, drawn once, if the strip can still be written."""
        self.effects = []
        self.selftest_until = now
        self.waiting = True
        self.dirty = True
        try:  # noqa: SIM105 - MicroPython has no contextlib
            self.render(now)
        except Exception:  # the strip itself failed: the watchdog's reset is all that is left
            pass

    def add_effect(self, effect, now):
        self.dirty = True
        if not self.effects:
            self.effect_start = now
        self.effects.append(effect)
        if len(self.effects) > MAX_EFFECTS:
            self.effects.pop(1)  # the oldest waiting one; the running effect finishes

    # -- what the strip shows now

    def frame(self, now):
        """The colours of every LED at `now`, before brightness and the current limit."""
        if now < self.selftest_until:
            return self._selftest(now)
        if self.waiting or not self.have_picture:
            return self._waiting(now)
        while self.effects and now - self.effect_start >= self.effects[0].duration:
            self.effect_start += self.effects[0].duration
            self.effects.pop(0)
        out = list(self.picture)
        for effect in self.effects[1:]:
            if isinstance(effect, Walk):  # a peg still to walk is not at its destination yet
                for index in effect.leds:
                    out[index] = (0, 0, 0)
        if self.effects:
            self.effects[0].draw(out, now - self.effect_start)
        return out

    def _selftest(self, now):
        phase, into = divmod(now - (self.selftest_until - 3 * SELFTEST_PHASE_MS), SELFTEST_PHASE_MS)
        color = ((32, 0, 0), (0, 32, 0), (0, 0, 32))[phase]
        lit = self.count * (into + 1) // SELFTEST_PHASE_MS
        return [color if index < lit else (0, 0, 0) for index in range(self.count)]

    def _waiting(self, now):
        into = now % WAITING_PERIOD_MS
        half = WAITING_PERIOD_MS // 2
        level = 1 + (WAITING_PEAK - 1) * (into if into < half else WAITING_PERIOD_MS - into) // half
        glow = (0, level // 3, level)
        return [glow if index % WAITING_SPACING == 0 else (0, 0, 0) for index in range(self.count)]

    def scaled(self, colors):
        """Brightness, then the current limit: the whole frame dims evenly to stay within the supply."""
        scale = self.brightness
        duty = 0
        for r, g, b in colors:
            duty += r + g + b
        drawn_ma = duty * scale * CHANNEL_MA // (255 * 255)
        if drawn_ma > self.budget_ma:
            scale = scale * max(0, self.budget_ma) // drawn_ma
        return [(r * scale // 255, g * scale // 255, b * scale // 255) for r, g, b in colors]

    def render(self, now):
        """Send the strip its picture for `now` if it changed: at once after a change from the host, and
        every FRAME_MS while something moves."""
        if not self.dirty and self.last_render is not None and now - self.last_render < FRAME_MS:
            return False
        self.dirty = False
        self.last_render = now
        colors = self.scaled(self.frame(now))
        if colors == self.shown:
            return False
        for index in range(self.count):
            self.pixels[index] = colors[index]
        self.pixels.write()
        self.shown = colors
        return True
