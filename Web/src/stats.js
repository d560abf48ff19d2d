// The numbers the HUD shows (pure: callers pass the time in), kept as medians of recent samples
// so one hiccup does not hide the typical value.

/** How many recent samples a median covers. */
const WINDOW = 60;
/** An input that got no frame within this time caused none; it is not a latency sample. */
const INPUT_FRAME_TIMEOUT_MS = 1000;

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
    this.inputToFrame = new RecentValues();
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

  /** An input message was sent at `now`. Only the oldest unanswered one is timed. */
  inputSent(now) {
    if (this.oldestUnansweredInput === null) this.oldestUnansweredInput = now;
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
   * same list until the picture changes, so a new one is a new picture).
   */
  drawn(now, picture) {
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
      inputToFrameMs: this.inputToFrame.median(),
      bytesPerFrame: this.frameBytes.median(),
      frames: this.frames,
      framesSkipped: this.framesSkipped,
      presented: this.presented,
    };
  }
}
