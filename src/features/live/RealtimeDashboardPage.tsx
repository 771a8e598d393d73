// The real-time dashboard (/app/realtimeDashboard, sidebar kept collapsed): a tile per live
// device of the practice, dragged and resized with react-grid-layout, the layout saved per user.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ReactGridLayout, useContainerWidth, type Layout } from 'react-grid-layout';
import { errorText } from '../../api/messages';
import { liveApi, liveDevicesQuery, type RealTimeDevice, type TileLayout } from './api';
import { LiveTile } from './LiveTile';
import 'react-grid-layout/css/styles.css';
import '../../styles/live.css';

const COLS = 12;
/** Grid rows are fine-grained (a tile is several), so a dragged resize has small steps. */
const ROW_PX = 32;
const MARGIN: readonly [number, number] = [8, 8];

/**
 * A new tile's size, by how many devices are live: they share one laptop screen (1280×800)
 * without scrolling while there are up to 16 — 2, 3 or 4 a row, in as many rows — so a tile
 * that turns to an alert is never out of sight. More than 16 scroll, 4 a row.
 */
export function tileSize(devices: number): { w: number; h: number } {
  if (devices <= 4) return { w: 6, h: 8 };
  if (devices <= 9) return { w: 4, h: 5 };
  return { w: 3, h: 4 };
}

/** The saved layout for the devices shown, new devices placed after it. */
export function arrange(devices: readonly RealTimeDevice[], saved: readonly TileLayout[] | null): TileLayout[] {
  const known = new Map((saved ?? []).map((l) => [l.i, l]));
  const tile = tileSize(devices.length);
  let next = 0;
  return devices.map((d) => {
    const kept = known.get(d.device_id);
    if (kept) return kept;
    const at = (saved?.length ?? 0) + next++;
    return { i: d.device_id, x: (at * tile.w) % COLS, y: Math.floor((at * tile.w) / COLS) * tile.h, ...tile };
  });
}

export function RealtimeDashboardPage() {
  const { t } = useTranslation();
  const devices = useQuery(liveDevicesQuery);
  const saved = useQuery({ queryKey: ['live', 'layout'], queryFn: liveApi.layout });
  const { width, containerRef, mounted } = useContainerWidth();
  // A device that streamed (it has a live recording) gets a tile; its state says whether it still does.
  const live = useMemo(() => (devices.data ?? []).filter((d) => d.recording_id !== null), [devices.data]);
  // The grid's layout changes only with the devices shown, not with each poll's frame times.
  const shownIds = live.map((d) => d.device_id).join('\n');
  // `live` is read for its ids only, which shownIds stands for.
  const layout = useMemo(() => arrange(live, saved.data ?? null), [shownIds, saved.data]);
  // A dragged or resized layout is saved like every write (a mutation): a failure says so on
  // the page instead of being dropped, and the layout kept is the one saved.
  const queryClient = useQueryClient();
  const saveLayout = useMutation({
    mutationFn: (items: TileLayout[]) => liveApi.saveLayout(items),
    onSuccess: (_, items) => queryClient.setQueryData(['live', 'layout'], items),
  });
  const { mutate } = saveLayout;
  const save = useCallback((next: Layout) => mutate(next.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }))), [mutate]);

  return (
    <section className="live-page" data-testid="realtime-dashboard" aria-labelledby="realtime-dashboard-title">
      <h2 id="realtime-dashboard-title">{t('live.dashboard.title')}</h2>
      {devices.isPending && <p className="muted" role="status">{t('common.loading')}</p>}
      {devices.isError && <p role="alert" className="error-text" data-testid="realtime-dashboard-error">{errorText(t, devices.error)}</p>}
      {saveLayout.isError && <p role="alert" className="error-text" data-testid="realtime-layout-error">{errorText(t, saveLayout.error)}</p>}
      {devices.isSuccess && live.length === 0 && <p className="card muted" data-testid="realtime-dashboard-empty">{t('live.dashboard.empty')}</p>}
      <div ref={containerRef}>
        {mounted && saved.isFetched && live.length > 0 && (
          <ReactGridLayout
            width={width}
            layout={layout}
            gridConfig={{ cols: COLS, rowHeight: ROW_PX, margin: MARGIN }}
            dragConfig={{ handle: '.live-tile-head' }}
            onDragStop={save}
            onResizeStop={save}
          >
            {live.map((d) => (
              <div key={d.device_id} data-testid="live-tile-cell">
                <LiveTile device={d} />
              </div>
            ))}
          </ReactGridLayout>
        )}
      </div>
    </section>
  );
}
