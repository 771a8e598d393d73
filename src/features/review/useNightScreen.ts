import { useEffect } from 'react';
import { getSignalEngine } from '../../../workers/client';
import { useNightSeen } from '../dashboard/api';

/**
 * The engine's workers start with the screen, beside its first queries, not after them
 * (a failed start is reported where the engine is used: NightReview). The charts' WebGL
 * context is made after their first frame, drawn in 2D (RendererOptions.glAfterFirstPaint).
 */
export function useEngineStart(): void {
  useEffect(() => {
    void getSignalEngine().catch(() => undefined);
  }, []);
}

/** A night whose review screen the physician opened is seen (issue 32.4); annotators' views do not count. */
export function useMarkSeen(patientId: number, shownRecording: number | null, physician: boolean): void {
  const seen = useNightSeen();
  useEffect(() => {
    if (shownRecording !== null && physician) seen.mutate({ patient_id: patientId, recording_id: shownRecording });
  }, [shownRecording, physician, patientId]);
}
