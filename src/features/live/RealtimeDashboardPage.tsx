// The real-time dashboard (/app/realtimeDashboard, sidebar kept collapsed): a tile per live
// device of the practice, dragged and resized with react-grid-layout, the layout saved per user.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ReactGridLayout, useContainerWidth, type Layout } from 'react-grid-layout';
import { errorText } from '../../api/messages';
import { liveApi, liveDevicesQuery, type RealTimeDevice, type TileLayout } from './api';
import { LiveBoardSurface } from './LiveBoardSurface';
import { LiveTile } from './LiveTile';
import 'react-grid-layout/css/styles.css';
import '../../styles/live.css';

/** Width of a grid column: the grid has as many as the dashboard's width holds, so a wall display holds more tiles a row. */
const COLUMN_PX = 60;
/** The fewest columns (a narrow window), and the grid tests' and saved layouts' reference. */
const MIN_COLS = 12;
/** Grid rows are fine-grained (a tile is several), so a dragged resize has small steps. */
const ROW_PX = 32;
const MARGIN: readonly [number, number] = [8, 8];
/** A new tile's width in columns when many devices are live (about 240 px). */
const COMPACT_TILE_COLS = 4;
/** The narrowest new tile (about 170 px): where compact tiles would leave a row below the screen. */
const NARROW_TILE_COLS = 3;

/** How many grid columns a dashboard `width` px wide has. */
export function gridColumns(width: number): number {
  return Math.max(MIN_COLS, Math.floor(width / COLUMN_PX));
}

/**
 * A new tile's size, by how many devices are live, the grid's columns and the grid rows the
 * screen has below the page's title (`rows`; 0 when not known): up to 16 share one laptop
 * screen (1280×800) without scrolling — 2, 3 or 4 a row, in as many rows — so a tile that turns
 * to an alert is never out of sight. More are compact (about 240 px wide), as many a row as the
 * width holds (32 on a 1920×1080 wall display), and grow, keeping their shape, while every bed
 * still fits on the screen, or are narrow (about 170 px) where only those fit it. Then every tile is made taller until its rows fill the screen's
 * height: a larger screen shows larger tiles, not the same ones in its top third (decision 1010).
 */
export function tileSize(devices: number, cols = MIN_COLS, rows = 0): { w: number; h: number } {
  const base = baseTile(devices, cols, rows);
  const tileRows = Math.ceil(devices / Math.max(1, Math.floor(cols / base.w)));
  return { w: base.w, h: Math.max(base.h, Math.floor(rows / tileRows)) };
}

/** tileSize's width, and its height before the tiles are stretched to the screen's. */
function baseTile(devices: number, cols: number, rows: number): { w: number; h: number } {
  if (devices <= 4) return { w: Math.floor(cols / 2), h: 8 };
  if (devices <= 9) return { w: Math.floor(cols / 3), h: 5 };
  const quarter = Math.floor(cols / 4);
  if (devices <= 16) return { w: quarter, h: 4 };
  // A compact tile is as many rows as columns (60-px columns, 40-px rows: 3 : 2), a narrow one
  // as tall as a compact one; `fits`: every bed on the screen at width `tw`.
  const fits = (tw: number) => Math.ceil(devices / Math.floor(cols / tw)) * Math.max(COMPACT_TILE_COLS, tw) <= rows;
  let w = Math.min(quarter, COMPACT_TILE_COLS);
  // One a column wider (and a row taller) while every bed still fits.
  while (w + 1 <= quarter && fits(w + 1)) w++;
  // Compact tiles one row too many for the screen (36 beds on 1920×1080: the demo's 4 and 32
  // more): narrow ones, more a row, where they all fit; where even they do not, compact ones scroll.
  if (w === COMPACT_TILE_COLS && rows > 0 && !fits(w) && fits(NARROW_TILE_COLS)) w = NARROW_TILE_COLS;
  return { w, h: Math.max(COMPACT_TILE_COLS, w) };
}

/** The grid rows `px` of height holds: n rows take n × 32 px, the 8-px gaps between them and one above and below (40 n + 8). */
export function gridRows(px: number): number {
  return Math.max(0, Math.floor((px - MARGIN[1]) / (ROW_PX + MARGIN[1])));
}

/**
 * The height from the top of `ref`'s element to the bottom of the window, in px, measured again
 * when the window is resized and when `above` (what the page shows above the element) changes.
 */
function useHeightBelow(ref: RefObject<HTMLElement | null>, above: string): number {
  const [height, setHeight] = useState(0);
  useEffect(() => {
    const measure = () => {
      const el = ref.current;
      // From the top of the page, not of the viewport: a dashboard scrolled down keeps its layout.
      if (el) setHeight(Math.max(0, window.innerHeight - (el.getBoundingClientRect().top + window.scrollY)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [ref, above]);
  return height;
}

/** The saved layout for the devices shown, new devices placed after it, as many a row as `cols` holds (sized for `rows`: tileSize). */
export function arrange(devices: readonly RealTimeDevice[], saved: readonly TileLayout[] | null, cols = MIN_COLS, rows = 0): TileLayout[] {
  const known = new Map((saved ?? []).map((l) => [l.i, l]));
  const tile = tileSize(devices.length, cols, rows);
  const perRow = Math.max(1, Math.floor(cols / tile.w));
  let next = 0;
  return devices.map((d) => {
    const kept = known.get(d.device_id);
    if (kept) return kept;
    const at = (saved?.length ?? 0) + next++;
    return { i: d.device_id, x: (at % perRow) * tile.w, y: Math.floor(at / perRow) * tile.h, ...tile };
  });
}

/**
 * The layout as an Arabic (right-to-left) screen shows it: the grid lays tiles out from the left
 * (react-grid-layout knows no direction), so each tile's column is mirrored, and mirrored back
 * before a dragged layout is saved (one saved layout reads the same in every language).
 */
export function mirrored<T extends { x: number; w: number }>(layout: readonly T[], cols: number): T[] {
  return layout.map((l) => ({ ...l, x: Math.max(0, cols - l.x - l.w) }));
}

export function RealtimeDashboardPage() {
  const { t, i18n } = useTranslation();
  const rtl = i18n.dir() === 'rtl';
  const devices = useQuery(liveDevicesQuery);
  const saved = useQuery({ queryKey: ['live', 'layout'], queryFn: liveApi.layout });
  const { width, containerRef, mounted } = useContainerWidth();
  // A device that streamed (it has a live recording) gets a tile; its state says whether it still does.
  const live = useMemo(() => (devices.data ?? []).filter((d) => d.recording_id !== null), [devices.data]);
  // The grid's layout changes only with the devices shown, not with each poll's frame times.
  const shownIds = live.map((d) => d.device_id).join('\n');
  // `live` is read for its ids only, which shownIds stands for.
  const cols = gridColumns(width);
  // Measured again once the loading line above the grid has gone (it moved the grid down).
  const rows = gridRows(useHeightBelow(containerRef, devices.status));
  const layout = useMemo(() => {
    const arranged = arrange(live, saved.data ?? null, cols, rows);
    return rtl ? mirrored(arranged, cols) : arranged;
  }, [shownIds, saved.data, cols, rows, rtl]);
  // A dragged or resized layout is saved like every write (a mutation): a failure says so on
  // the page instead of being dropped, and the layout kept is the one saved.
  const queryClient = useQueryClient();
  const saveLayout = useMutation({
    mutationFn: (items: TileLayout[]) => liveApi.saveLayout(items),
    onSuccess: (_, items) => queryClient.setQueryData(['live', 'layout'], items),
  });
  const { mutate } = saveLayout;
  const save = useCallback(
    (next: Layout) => {
      const items = next.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));
      mutate(rtl ? mirrored(items, cols) : items);
    },
    [mutate, rtl, cols],
  );

  return (
    <section className="live-page" data-testid="realtime-dashboard" aria-labelledby="realtime-dashboard-title">
      <h2 id="realtime-dashboard-title">{t('live.dashboard.title')}</h2>
      {devices.isPending && <p className="muted" role="status">{t('common.loading')}</p>}
      {devices.isError && <p role="alert" className="error-text" data-testid="realtime-dashboard-error">{errorText(t, devices.error)}</p>}
      {saveLayout.isError && <p role="alert" className="error-text" data-testid="realtime-layout-error">{errorText(t, saveLayout.error)}</p>}
      {devices.isSuccess && live.length === 0 && <p className="card muted" data-testid="realtime-dashboard-empty">{t('live.dashboard.empty')}</p>}
      <div ref={containerRef}>
        {mounted && saved.isFetched && live.length > 0 && (
          <LiveBoardSurface>
            {/* The grid's own math is left to right; the tiles keep the page's direction. */}
            <div dir="ltr">
              <ReactGridLayout
                width={width}
                layout={layout}
                gridConfig={{ cols, rowHeight: ROW_PX, margin: MARGIN }}
                dragConfig={{ handle: '.live-tile-head' }}
                onDragStop={save}
                onResizeStop={save}
              >
                {live.map((d) => (
                  <div key={d.device_id} dir={i18n.dir()} data-testid="live-tile-cell">
                    <LiveTile device={d} />
                  </div>
                ))}
              </ReactGridLayout>
            </div>
          </LiveBoardSurface>
        )}
      </div>
    </section>
  );
}
