// Injected by bench/realtime-screen.ts (page.addInitScript) before the app's own scripts, so
// plain JavaScript that the browser runs as it is. Two instruments:
//
// 1. window.__nocturneLiveProbe (src/features/live/paintProbe.ts): the live path tells it
//    when a frame's samples went into a series (with the device's send time) and when a
//    plot drew that series. On "drawn" it first makes the browser raster what was drawn —
//    gl.finish() for WebGL, a 1-pixel getImageData for canvas 2D — then stamps the time:
//    every frame applied to that series since its last draw was painted then.
// 2. requestAnimationFrame, wrapped: each callback is timed, and callbacks of one display
//    frame (they share its timestamp) are summed, so a frame's work is all of its
//    animation-frame callbacks, the probe's raster waits included.
//
// window.__nocturneLiveBench drives both: start() begins a recording, take() ends it and
// returns flat arrays (bench/screen-stats.ts reads them), now() is this page's clock.
(() => {
  const now = () => performance.timeOrigin + performance.now();
  /** series → [sentMs, arrivedMs, …] applied since it was last drawn. */
  const waiting = new WeakMap();
  /** A series no plot draws (a tile draws one channel) keeps only its newest frames. */
  const MAX_WAITING = 128;
  /** The recording, or null. */
  let rec = null;
  /** Draws made by the animation-frame callback running now. */
  let drawsInCallback = 0;

  const raster = (canvas) => {
    const gl = canvas.getContext('webgl') || canvas.getContext('webgl2');
    if (gl) gl.finish();
    else canvas.getContext('2d')?.getImageData(0, 0, 1, 1);
  };

  window.__nocturneLiveProbe = {
    applied(series, sentMs) {
      let list = waiting.get(series);
      if (!list) waiting.set(series, (list = []));
      list.push(sentMs, now());
      if (list.length > 2 * MAX_WAITING) list.splice(0, list.length - 2 * MAX_WAITING);
    },
    drawn(series, canvas) {
      raster(canvas);
      const painted = now();
      drawsInCallback++;
      const list = waiting.get(series);
      if (!list || list.length === 0) return;
      if (rec && !rec.done) for (let i = 0; i < list.length; i += 2) rec.paints.push(list[i], list[i + 1], painted);
      list.length = 0;
    },
  };

  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    raf((ts) => {
      if (rec && !rec.done && ts !== rec.lastTs) {
        // A new display frame: the recording ends at a frame boundary once it has enough.
        if (rec.maxDrawFrames > 0 && rec.drawFrames >= rec.maxDrawFrames) rec.done = true;
        else {
          rec.lastTs = ts;
          rec.frames.push(ts, 0, 0, 0);
        }
      }
      const counting = rec && !rec.done;
      drawsInCallback = 0;
      const start = performance.now();
      try {
        callback(ts);
      } finally {
        if (counting && rec && rec.lastTs === ts) {
          const at = rec.frames.length - 4;
          if (drawsInCallback > 0 && rec.frames[at + 2] === 0) rec.drawFrames++;
          rec.frames[at + 1] += performance.now() - start;
          rec.frames[at + 2] += drawsInCallback;
          rec.frames[at + 3] += 1;
        }
      }
    });

  let longTasks = null;
  try {
    const observer = new PerformanceObserver((list) => {
      if (rec && !rec.done) for (const e of list.getEntries()) rec.longTasks.push(e.duration);
    });
    observer.observe({ type: 'longtask', buffered: false });
    longTasks = observer;
  } catch {
    // No long-task timing in this browser: the recording says so (longTasksObserved: false).
  }

  window.__nocturneLiveBench = {
    now,
    /** Starts recording; `maxDrawFrames` > 0 ends it after that many display frames that drew. */
    start(maxDrawFrames = 0) {
      rec = { paints: [], frames: [], longTasks: [], lastTs: -1, drawFrames: 0, maxDrawFrames, done: false };
    },
    /** True once a count-limited recording has its frames. */
    done() {
      return Boolean(rec && rec.done);
    },
    /** Ends the recording: paints [sent, arrived, painted]…, frames [ts, work, draws, callbacks]…, long tasks (ms). */
    take() {
      const r = rec;
      rec = null;
      if (!r) return { paints: [], frames: [], longTasks: [], longTasksObserved: longTasks !== null };
      // take() runs in a task of its own, never inside a display frame: every frame recorded is whole.
      return { paints: r.paints, frames: r.frames, longTasks: r.longTasks, longTasksObserved: longTasks !== null };
    },
  };
})();
