// The numbers the HUD shows (pure: callers pass the time in), kept as medians of recent samples
// so one hiccup does not hide the typical value.

/** How many recent samples a median covers. */
const WINDOW = 60;
/** An input that got no frame within this time caused none; it is not a latency sample. */
const INPUT_FRAME_TIMEOUT_MS = 1000;
/** Numbered inputs waiting for a picture that shows them: a few seconds of moves. */
const WAITING_INPUTS = 512;

/**
 * A fixed-size window of recent numbers with their median.
 */
export class RecentValues {
  constructor(size = WINDOW) {
    this.size = size;
    this.values = [];
  }

  /** Adds one sample, dropping the oldest beyond the window. */
  push(value) {
    this.values.push(value);
    if (this.values.length > this.size) this.values.shift();
  }

  /** The largest value of the window, or null when empty. */
  max() {
    return this.values.length ? Math.max(...this.values) : null;
  }

  /** The median of the window, or null when empty. */
  median() {
    if (!this.values.length) return null;
    const sorted = [...this.values].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}

/**
 * Counters and medians for the HUD and `window.stackcast.stats`. All times in milliseconds.
 */
export class ViewerStats {
  constructor() {
    this.roundTrip = new RecentValues(10);
    /** Input to the next frame of any kind: for a server that does not echo input numbers. */
    this.inputToFrame = new RecentValues();
    /** Input to the first picture drawn that shows it (its number echoed, §3.8). */
    this.inputToPicture = new RecentValues();
    /** @type {{input: number, at: number}[]} numbered inputs sent, oldest first, not yet shown. */
    this.waitingInputs = [];
    /** How far a frame put the layers a pointer's bindings had moved from where they were drawn. */
    this.reconcileJumps = new RecentValues();
    this.frameBytes = new RecentValues();
    this.drawTimes = [];
    this.frames = 0;
    this.framesSkipped = 0;
    /** Distinct pictures drawn: a timeline's frames and the ones between them on a fast display. */
    this.presented = 0;
    this.lastPicture = undefined;
    this.oldestUnansweredInput = null;
  }

  /** A ping's answer came back after `ms`. */
  pong(ms) {
    this.roundTrip.push(ms);
  }

  /**
   * An input message was sent at `now`. A numbered one (`input`) waits for the first picture drawn
   * that shows it; of the others, only the oldest unanswered one is timed, to the next frame.
   * @param {number} now
   * @param {number|null} [input] the number it carried, or null.
   */
  inputSent(now, input = null) {
    if (input !== null) {
      this.waitingInputs.push({ input, at: now });
      if (this.waitingInputs.length > WAITING_INPUTS) this.waitingInputs.shift();
      return;
    }
    if (this.oldestUnansweredInput === null) this.oldestUnansweredInput = now;
  }

  /** A new connection: its input numbers start again, so none sent before is waited for. */
  inputReset() {
    this.waitingInputs = [];
    this.oldestUnansweredInput = null;
  }

  /**
   * A picture drawn at `now` shows the inputs numbered up to `input`: each one still waiting is
   * answered (unless it waited so long it caused nothing).
   * @param {number} now
   * @param {number|null|undefined} input the picture's input number (none on a v1 list).
   */
  inputShown(now, input) {
    if (!Number.isFinite(input)) return;
    while (this.waitingInputs.length && this.waitingInputs[0].input <= input) {
      const latency = now - this.waitingInputs.shift().at;
      if (latency <= INPUT_FRAME_TIMEOUT_MS) this.inputToPicture.push(latency);
    }
  }

  /** A frame replaced a picture the pointer's bindings had moved, `points` away from it. */
  reconcileJump(points) {
    this.reconcileJumps.push(points);
  }

  /**
   * A frame of `bytes` arrived at `now`; `skipped` frames were merged into it by the server.
   * It answers the input that waits for a frame, if any.
   */
  frameReceived(now, bytes, skipped) {
    this.frames += 1;
    this.framesSkipped += skipped;
    this.frameBytes.push(bytes);
    if (this.oldestUnansweredInput !== null) {
      const latency = now - this.oldestUnansweredInput;
      if (latency <= INPUT_FRAME_TIMEOUT_MS) this.inputToFrame.push(latency);
      this.oldestUnansweredInput = null;
    }
  }

  /**
   * The canvas was drawn at `now`, showing `picture` (the display list drawn: models hand out the
   * same list until the picture changes, so a new one is a new picture), which shows the input
   * numbered `input` (§3.8; undefined when frames carry none).
   */
  drawn(now, picture, input) {
    this.inputShown(now, input);
    this.drawTimes.push(now);
    while (this.drawTimes[0] <= now - 1000) this.drawTimes.shift();
    if (picture !== undefined && picture !== this.lastPicture) {
      this.presented += 1;
      this.lastPicture = picture;
    }
  }

  /**
   * The current figures.
   * @param {number} now used to count draws in the last second.
   */
  snapshot(now) {
    return {
      fps: this.drawTimes.filter((t) => t > now - 1000).length,
      roundTripMs: this.roundTrip.median(),
      // Echoed input numbers time each input to the picture that shows it; without them, the
      // next frame of any kind is all there is.
      inputToFrameMs: this.inputToPicture.median() ?? this.inputToFrame.median(),
      inputEchoed: this.inputToPicture.values.length > 0,
      reconcileJumpPt: this.reconcileJumps.max(),
      bytesPerFrame: this.frameBytes.median(),
      frames: this.frames,
      framesSkipped: this.framesSkipped,
      presented: this.presented,
    };
  }
}
