/** Request schema of GET /patient/details. */
import { Type } from '@sinclair/typebox';

/** ?patient_id of the patient whose patient_info is read. */
export const PatientDetailsQuery = Type.Object({ patient_id: Type.Integer({ minimum: 1 }) });
