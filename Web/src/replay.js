// The replay page (`?replay=NAME`): plays a recording the server replayed headless
// (`GET /recordings/NAME`, docs/recording.md). A full frame comes every so often and deltas
// between, so the timeline is the viewer's own: play, pause, step and the scrubber show frame i
// by applying the full frame before it and the deltas up to it, with no socket and no input.
// `ReplayTimeline` is pure (no DOM, no clock) so node tests cover it; `setupReplay` wires it.

import { DisplayList } from './delta.js';
import { LayerTree } from './tree.js';

/** Recording names as the server accepts them: letters, digits, - and _. */
export const REPLAY_NAME = /^[A-Za-z0-9_-]{1,100}$/;

/** A replayed recording's frames and the one shown. */
export class ReplayTimeline {
  /**
   * @param {{name:string, app:string, frames:{seq:number, t:number, hash:string, matches:boolean,
   *          wire:'v1'|'v2', frame:object}[]}} document what `GET /recordings/NAME` answers.
   */
  constructor(document) {
    if (!Array.isArray(document?.frames) || document.frames.length === 0) {
      throw new Error('the recording has no frames');
    }
    this.document = document;
    this.frames = document.frames;
    this.index = 0;
    /** The model holding the frame shown (a display list for v1 frames, a layer tree for v2). */
    this.model = null;
    this.show(0);
  }

  get current() { return this.frames[this.index]; }
  get atEnd() { return this.index === this.frames.length - 1; }

  /**
   * Shows frame `index` (clamped): the next one is applied to the model shown; any other is
   * rebuilt from the full frame before it, then the deltas up to it.
   */
  show(index) {
    const target = Math.min(Math.max(0, Math.trunc(index)), this.frames.length - 1);
    let model = this.model;
    let from = target;
    if (!(model && target === this.index + 1 && this.frames[target].wire === this.current.wire)) {
      while (from > 0 && !this.frames[from].frame?.full) from -= 1;
      if (!this.frames[from].frame?.full) throw new Error(`frame ${this.frames[target].seq}: no full frame before it`);
      model = this.frames[from].wire === 'v1' ? new DisplayList() : new LayerTree();
    }
    for (let position = from; position <= target; position += 1) {
      const { seq, frame } = this.frames[position];
      // No frame: the same picture as the one before, under the next seq.
      if (frame === null) {
        model.seq = seq;
        continue;
      }
      const result = model.apply(frame);
      if (!result.ok) throw new Error(`frame ${seq}: ${result.reason}`);
    }
    this.model = model;
    this.index = target;
    return this.current;
  }

  /** Shows the next frame (or the previous with `-1`); false at either end. */
  step(by = 1) {
    const before = this.index;
    this.show(this.index + by);
    return this.index !== before;
  }

  /** The index of the last frame at or before scene time `t` (seconds). */
  indexAt(t) {
    let low = 0;
    let high = this.frames.length - 1;
    if (t < this.frames[0].t) return 0;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.frames[middle].t <= t) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The nodes of the frame shown, in paint order. */
  nodes() { return this.model.nodes(); }
}

/**
 * Loads recording `name` and wires the replay bar: play/pause, step back and forward, the
 * scrubber (one position per frame) and a line naming the frame, its time and hash.
 * @param {object} parts
 * @param {string} parts.name a name that matches REPLAY_NAME.
 * @param {string|null} [parts.token] the token the server serves the recording for.
 * @param {(timeline: ReplayTimeline) => void} parts.onShow called after each change of frame.
 * @param {(message: string) => void} parts.onError
 * @param {typeof fetch} [parts.load]
 */
export async function setupReplay({ name, token = null, onShow, onError, load = fetch }) {
  const $ = (id) => document.getElementById(id);
  let timeline;
  try {
    const query = token ? `?token=${encodeURIComponent(token)}` : '';
    const response = await load(`/recordings/${name}${query}`);
    if (!response.ok) throw new Error((await response.text()).trim() || `HTTP ${response.status}`);
    timeline = new ReplayTimeline(await response.json());
  } catch (error) {
    onError(`Replay ${name}: ${error.message}`);
    return null;
  }
  const bar = $('replay-bar');
  const play = $('replay-play');
  const scrubber = $('replay-scrubber');
  const label = $('replay-frame');
  bar.hidden = false;
  scrubber.max = String(timeline.frames.length - 1);

  let playing = null; // {wallStart, sceneStart} while playing

  function shown() {
    const { seq, t, hash, matches } = timeline.current;
    scrubber.value = String(timeline.index);
    label.textContent = `frame ${seq} (${timeline.index + 1}/${timeline.frames.length}) · t ${t.toFixed(3)} s · ${hash}${matches ? '' : ' · differs from the recording'}`;
    label.dataset.seq = String(seq);
    play.textContent = playing ? 'Pause' : 'Play';
    play.setAttribute('aria-pressed', String(Boolean(playing)));
    onShow(timeline);
  }

  function pause() {
    playing = null;
    shown();
  }

  function frame(now) {
    if (!playing) return;
    const index = timeline.indexAt(playing.sceneStart + (now - playing.wallStart) / 1000);
    if (index !== timeline.index) timeline.show(index);
    if (timeline.atEnd) return pause();
    shown();
    requestAnimationFrame(frame);
  }

  play.addEventListener('click', () => {
    if (playing) return pause();
    if (timeline.atEnd) timeline.show(0);
    playing = { wallStart: performance.now(), sceneStart: timeline.current.t };
    shown();
    requestAnimationFrame(frame);
  });
  $('replay-back').addEventListener('click', () => { playing = null; timeline.step(-1); shown(); });
  $('replay-step').addEventListener('click', () => { playing = null; timeline.step(1); shown(); });
  scrubber.addEventListener('input', () => { playing = null; timeline.show(Number(scrubber.value)); shown(); });
  shown();
  return timeline;
}
