/** The routes of this part of the API and their schemas (contract/api.ts): patients, their details and notes, samples, the dashboard. */
import { Answer, Done } from '../answers';
import {
  DiseaseIds, DiseaseOperationBody, DiseasesAnswer, GeneratedCode, NewPatientAnswer, NewPatientBody, PatientFields, PatientIdParams, PatientListAnswer, PatientListQuery,
  PatientStatusBody, PatientVersion, ResetPatientPasswordBody, UnseenRecordingsAnswer, UpdatePatientInfoBody,
} from '../patients';
import { PatientDetailsAnswer, PatientDetailsQuery } from '../patient-details';
import {
  AddCheckupBody, AddCommentBody, AddHistoryEntryBody, Checkups, CommentAnswer, CommentsAnswer, DeleteCommentBody, DeleteHistoryEntryBody, GetCommentsBody, HistoryAnswer,
  MarkCheckupBody, PatientIdBody, PatientIdQuery, UpdateCommentBody, UpdateHistoryEntryBody,
} from '../patient-notes';
import { CheckupAnswersBody, QuestionnairesAnswer, QuestionnairesQuery } from '../questionnaires';
import { AddSampleAnswer, AddSampleBody, SamplePatientsAnswer } from '../samples';
import { DeviceNotices, NightSeenBody, NotificationIdParams, NotificationsAnswer, NotificationsMade, TriagePrepareBody, Widgets } from '../dashboard';
import { Triage, TriagePrepared } from '../triage';

const history = { querystring: PatientIdQuery, response: { 200: Answer(HistoryAnswer) } };
const addedSample = Answer(AddSampleAnswer);

export const patientsEndpoints = {
  // The list and the archive (server/patients/list-routes.ts).
  'GET /physician/patients': { querystring: PatientListQuery, response: { 200: Answer(PatientListAnswer) } },
  'GET /physician/patients/unseen-recordings': { response: { 200: Answer(UnseenRecordingsAnswer) } },
  // Patient management (server/patients/admin-routes.ts).
  'GET /patient/generate-code': { response: { 200: Answer(GeneratedCode) } },
  'POST /patient/get-disease-list': { response: { 200: Answer(DiseasesAnswer) } },
  'POST /physician/new-patient': { body: NewPatientBody, response: { 201: Answer(NewPatientAnswer, { patientId: NewPatientAnswer.properties.patient_id }) } },
  'POST /physician/update-patient-info': { body: UpdatePatientInfoBody, response: { 200: Answer(PatientVersion) } },
  'POST /physician/update-patient-details/id=:id': { params: PatientIdParams, body: PatientFields, response: { 200: Answer(PatientVersion) } },
  'POST /patient/disease-operation': { body: DiseaseOperationBody, response: { 200: Answer(DiseaseIds) } },
  'POST /physician/reset-patient-password': { body: ResetPatientPasswordBody, response: { 200: Done() } },
  'POST /physician/update-patient-status': { body: PatientStatusBody, response: { 200: Done() } },
  // One patient's details (server/patients/details-routes.ts).
  'GET /patient/details': { querystring: PatientDetailsQuery, response: { 200: Answer(PatientDetailsAnswer) } },
  // Histories (server/patients/history-routes.ts; contract/questionnaire-rules.ts HISTORY_FETCH_PATHS).
  'GET /patient/fetch-symptoms': history,
  'GET /patient/fetch-medications': history,
  'GET /patient/fetch-diet-plan': history,
  'POST /patient/add-history-entry': { body: AddHistoryEntryBody, response: { 201: Answer(HistoryAnswer) } },
  'POST /patient/update-history-entry': { body: UpdateHistoryEntryBody, response: { 200: Answer(HistoryAnswer) } },
  'POST /patient/delete-history-entry': { body: DeleteHistoryEntryBody, response: { 200: Answer(HistoryAnswer) } },
  // Comments and check-ups (server/patients/notes-routes.ts).
  'POST /patient/get-comment': { body: GetCommentsBody, response: { 200: Answer(CommentsAnswer) } },
  'POST /patient/add-comment': { body: AddCommentBody, response: { 200: Answer(CommentAnswer) } },
  'POST /patient/update-comment': { body: UpdateCommentBody, response: { 200: Answer(CommentAnswer) } },
  'POST /patient/delete-comment': { body: DeleteCommentBody, response: { 200: Done() } },
  'POST /patient/get-checkup-list': { body: PatientIdBody, response: { 200: Answer(Checkups) } },
  'POST /patient/add-checkup': { body: AddCheckupBody, response: { 200: Answer(Checkups) } },
  'POST /patient/mark-as-complete': { body: MarkCheckupBody, response: { 200: Answer(Checkups) } },
  // Questionnaires (server/patients/questionnaire-routes.ts).
  'GET /device/qna': { querystring: QuestionnairesQuery, response: { 200: Answer(QuestionnairesAnswer) } },
  'POST /patient/checkup-questionnaire': { body: CheckupAnswersBody, response: { 201: Answer(QuestionnairesAnswer) } },
  // Sample patients (server/samples/routes.ts): a night added to a new sample is 201, to an existing one 200.
  'GET /patient/samplePatients': { response: { 200: Answer(SamplePatientsAnswer) } },
  'POST /patient/samplePatient': { body: AddSampleBody, response: { 200: addedSample, 201: addedSample } },
  // The dashboard (server/dashboard/routes.ts, triage-routes.ts).
  'GET /physician/widgets': { response: { 200: Answer(Widgets) } },
  'POST /physician/generate-notifications': { response: { 200: Answer(NotificationsMade) } },
  'GET /physician/get-notifications': { response: { 200: Answer(NotificationsAnswer) } },
  'POST /physician/update-notification/id=:id': { params: NotificationIdParams, response: { 200: Done() } },
  'POST /physician/night-seen': { body: NightSeenBody, response: { 200: Done() } },
  'GET /physician/deallocation-notifications': { response: { 200: Answer(DeviceNotices) } },
  'GET /physician/triage': { response: { 200: Answer(Triage) } },
  'POST /physician/triage/prepare': { body: TriagePrepareBody, response: { 200: Answer(TriagePrepared) } },
};
