// Shapes of the patient-detail calls (spec 2 §7 and the server's /patient routes).

export interface PatientInfo {
  patient_id: number;
  patient_code: string;
  first_name: string | null;
  last_name: string | null;
  gender: string | null;
  date_of_birth: string | null;
  height: number | null;
  weight: number | null;
  bmi: number | null;
  vital_parameters: string | null;
  diseases: string;
  /** Condition ids, comma-separated (spec 2 §3 Disease). */
  diseaseIds?: string;
  device_id: string | null;
  /** The time zone of the patient's booked device, when one is booked. */
  timezone?: string | null;
  created_by: number | null;
  /** When the patient's account was created (ISO); trend ranges start no earlier. */
  createdAt?: string | null;
  is_sample_patient: boolean;
}

interface NightChannel {
  code: string;
  label: string;
  unit: string;
  fs: number;
  count: number;
  /** Valid samples (missing ones not counted); the night list gives it for every stored channel. */
  valid?: number;
}

export interface NightInfo {
  recording_id: number;
  /** Night key, Unix seconds (UTC). */
  night: number;
  recording_date: string;
  device_id: string;
  timezone: string;
  /** ms UTC. */
  recording_start_time: number;
  recording_stop_time: number;
  source: string;
  channels: NightChannel[];
  /** The night's sessions (a CPAP night where the mask came off: one per stretch of files); absent from older servers. */
  sessions?: NightSession[];
  /** Other recordings with this night's key (a device that streamed beside an imported night): shown from this night, not as nights of their own. */
  others?: NightInfo[];
  /** A device session still streaming (its end grows with every frame). */
  live?: boolean;
}

/** One session of a night: what its files cover together. */
interface NightSession {
  /** ms UTC. */
  start: number;
  end: number;
  duration_ms: number;
  files: string[];
}

/** GET /physician/preferences, as the contract has it. */
export type { PhysicianPreferences } from '../../../contract/preferences';
