// Full-night charts before the raw samples (issue 14 point 7). While a channel's samples
// are on their way to the engine, its chart is drawn from the server's overview: the
// engine's own M4 view of exactly the window the chart asks for at full-night zoom (the
// feeder's window for the night at the plot's width), computed on the server from the
// stored samples. Any other window (a zoom, a pan, a new width) waits for the engine, so
// an overview is never stretched or shown at a zoom it was not made for; once the samples
// are in, every other window comes from the engine. The overview's own window is still
// served from it then: it is the engine's view of the same samples, and the first frame
// need not wait behind the worker's loads for a view it already has.
import { useEffect } from 'react';
import type { ChannelInfo, ChannelRef, ViewResult } from '../../../engine/index';
import { hz, ms } from '../../../engine/index';
import type { DecodedView } from '../../../engine/viewWire';
import type { ViewSource } from '../../charts/feeder';
import type { ChartScreen } from '../../charts/screen';
import { rememberPlotWidth } from './preload';
import { markOnce } from '../../charts/gl/stats';
import { isAbort } from '../../api/client';

/** User-timing marks of the screen's first request for overviews, and of overviews it took from a prefetch instead. */
const OVERVIEW_ASKED_MARK = 'nocturne:overview-asked';
const OVERVIEW_SEEDED_MARK = 'nocturne:overview-seeded';

/** The window of one overview. */
interface Window {
  t0: number;
  t1: number;
  pixels: number;
}

export interface OverviewDeps {
  /** The engine's views (the deferred signal API). */
  engine: ViewSource;
  /** Whether the engine holds a channel's samples. */
  loaded(code: string): boolean;
  /** Resolves once a channel's load ended (it is not started by this). */
  whenLoaded(code: string): Promise<unknown>;
  /** The server's overviews of channels for a window, in the order asked (one request). */
  fetch(codes: readonly string[], t0: number, t1: number, pixels: number): Promise<DecodedView[]>;
}

/** A view source that answers from overviews for channels still loading, from the engine otherwise. */
export class OverviewSource implements ViewSource {
  private readonly previews = new Map<string, Window & { view: ViewResult }>();
  private readonly asked = new Map<string, string>();
  /** Views waiting for a channel: woken when its overview for some window arrives. */
  private readonly waiters = new Map<string, Set<() => void>>();
  /** Overviews served to the feeder. */
  served = 0;

  constructor(private readonly deps: OverviewDeps) {}

  /**
   * Asks the server for the channels' overviews of `w` in one request (each channel once per
   * window); resolves with the provisional infos of those it answered for, without the
   * channels the engine got first (none when the request failed).
   */
  async request(night: string, codes: readonly string[], w: Window): Promise<Record<string, ChannelInfo>> {
    const key = `${w.t0}:${w.t1}:${w.pixels}`;
    const asking = codes.filter((code) => !this.deps.loaded(code) && this.asked.get(code) !== key);
    if (asking.length === 0) return {};
    for (const code of asking) this.asked.set(code, key);
    // Read by the e2e test: an overview asked for before this (a reload's prefetch) was taken, not asked again.
    markOnce(OVERVIEW_ASKED_MARK);
    let answers: DecodedView[];
    try {
      answers = await this.deps.fetch(asking, w.t0, w.t1, w.pixels);
    } catch (error) {
      // Aborted: the screen closed. Otherwise the raw samples still come: the charts are drawn from them.
      if (isAbort(error)) return {};
      console.warn(`Overviews of ${asking.join(', ')} could not be loaded`, error);
      return {};
    }
    return this.accept(night, asking, w, answers);
  }

  /**
   * Takes overviews of `w` that arrived before the screen asked (a reload's prefetch), as
   * if asked for and answered: their charts draw from them at the screen's first frame.
   * Returns the provisional infos, as `request` does.
   */
  seed(night: string, codes: readonly string[], w: Window, answers: readonly DecodedView[]): Record<string, ChannelInfo> {
    const key = `${w.t0}:${w.t1}:${w.pixels}`;
    for (const code of codes) this.asked.set(code, key);
    markOnce(OVERVIEW_SEEDED_MARK);
    return this.accept(night, codes, w, answers);
  }

  /** Keeps the answers (those the engine did not get first) and wakes the views waiting for them. */
  private accept(night: string, codes: readonly string[], w: Window, answers: readonly DecodedView[]): Record<string, ChannelInfo> {
    const infos: Record<string, ChannelInfo> = {};
    codes.forEach((code, i) => {
      const { view, channel } = answers[i]!;
      if (this.deps.loaded(code)) return;
      this.previews.set(code, { ...w, view });
      for (const wake of this.waiters.get(code) ?? []) wake();
      infos[code] = {
        night,
        code,
        sampleRateHz: hz(Number.NaN),
        t0Ms: ms(view.origin),
        t1Ms: ms(view.origin + view.pixels * view.pxMs),
        count: channel.count,
        validCount: channel.validCount,
        missingFraction: channel.count > 0 ? (channel.count - channel.validCount) / channel.count : 0,
        min: channel.min,
        max: channel.max,
        sampleBytes: 0,
        indexBytes: 0,
      };
    });
    return infos;
  }

  /** The overview of a channel for exactly this window. */
  private preview(code: string, t0: number, t1: number, pixels: number): ViewResult | null {
    const p = this.previews.get(code);
    if (!p) return null;
    return p.t0 === t0 && p.t1 === t1 && p.pixels === pixels ? p.view : null;
  }

  async views(refs: readonly ChannelRef[], t0: number, t1: number, pixels: number): Promise<ViewResult[]> {
    const out: (ViewResult | null)[] = refs.map((r) => this.preview(r.code, t0, t1, pixels));
    refs.forEach((r, i) => {
      if (!out[i]) return;
      this.served++;
      // The first-paint benchmark and the e2e test read which charts an overview drew first.
      performance.mark(`nocturne:overview-served:${r.code}`);
    });
    // A channel still loading waits for the engine, or for its overview of this very window
    // (asked again when the plot's width changed meanwhile), whichever comes first.
    await Promise.all(refs.map(async (r, i) => {
      if (!out[i]) out[i] = await this.overviewOrLoad(r.code, t0, t1, pixels);
    }));
    const rest = refs.filter((_, i) => !out[i]);
    if (rest.length > 0) {
      const views = await this.deps.engine.views(rest, t0, t1, pixels);
      let k = 0;
      for (let i = 0; i < out.length; i++) if (!out[i]) out[i] = views[k++]!;
    }
    return out as ViewResult[];
  }

  /** The overview of this window if it arrives before the channel's load ends; null once the engine holds it (or failed to). */
  private async overviewOrLoad(code: string, t0: number, t1: number, pixels: number): Promise<ViewResult | null> {
    if (this.deps.loaded(code)) return null;
    let wake = () => {};
    const set = this.waiters.get(code) ?? new Set();
    this.waiters.set(code, set);
    const loadEnded = this.deps.whenLoaded(code).then(() => 'loaded' as const, () => 'loaded' as const);
    try {
      for (;;) {
        const woken = new Promise<'overview'>((resolve) => {
          wake = () => resolve('overview');
          set.add(wake);
        });
        const first = await Promise.race([woken, loadEnded]);
        set.delete(wake);
        if (first === 'loaded') return null;
        const view = this.preview(code, t0, t1, pixels);
        if (view) {
          this.served++;
          performance.mark(`nocturne:overview-served:${code}`);
          return view;
        }
      }
    } finally {
      set.delete(wake);
    }
  }
}

/**
 * Asks for the overviews of `codes` (one request) whenever the screen shows the whole night
 * at a known plot width, and hands the channels' provisional infos to `onInfos` together
 * (one render of the screen for all of them, not one per channel).
 */
export function useOverviews(screen: ChartScreen, source: OverviewSource, night: string, codes: readonly string[], onInfos: (infos: Record<string, ChannelInfo>) => void): void {
  const key = codes.join(',');
  useEffect(() => {
    let live = true;
    const ask = () => {
      const { range, domain } = screen.view.store.state;
      if (screen.width < 1 || range.t0 !== domain.t0 || range.t1 !== domain.t1) return;
      rememberPlotWidth(screen.width);
      void source.request(night, codes, screen.feeder.windowFor(range)).then((infos) => {
        if (live && Object.keys(infos).length > 0) onInfos(infos);
      });
    };
    ask();
    const off = screen.onWidth(ask);
    return () => {
      live = false;
      off();
    };
    // `codes` is read through its key; onInfos is a state setter's wrapper.
  }, [screen, source, night, key]);
}
