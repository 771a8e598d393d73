/** The routes of this part of the API and their schemas (contract/api.ts): devices, live devices and their configuration, the access trail, reports. */
import { Answer, Done, FileAnswer } from '../answers';
import {
  AvailableDatesAnswer,
  AvailableDatesQuery,
  AvailableDevice,
  AvailableDevicesQuery,
  CancelledAnswer,
  DataCenterAnswer,
  DeployDecisionParams,
  DeployInPastBody,
  DeployRequestFiled,
  DeployRequestsAnswer,
  DeviceHistoryBody,
  DeviceOperationAnswer,
  DeviceOperationBody,
  DeviceSerialBody,
  FutureAllocationsAnswer,
  HistoryAnswer,
  PatientRequestsQuery,
} from '../devices';
import { DeviceKeys, DeviceKeysBody, DevicesConfigAnswer, DidParams, FrameCount, IssuedKey, LayoutAnswer, LayoutBody, RangeQuery, RealTimeDevice, RevokedKeys, SavedConfig, SavedLayout, UpdateDeviceConfigBody } from '../live';
import { AccessLogAnswer, AccessTrailAnswer, AccessTrailQuery, PatientAccessQuery } from '../audit';
import { NewReportBody, ReportIdParams, ReportJob, ReportsQuery } from '../reports';
import { Type } from '@sinclair/typebox';

/** Device allocation (spec 1 §7, §8), server/devices/routes.ts. */
const allocation = {
  'GET /physician/available-devices': { querystring: AvailableDevicesQuery, response: { 200: Answer(Type.Array(AvailableDevice)) } },
  'GET /physician/available-devices-dates': { querystring: AvailableDatesQuery, response: { 200: Answer(AvailableDatesAnswer) } },
  'POST /device/device-operation': { body: DeviceOperationBody, response: { 200: Answer(DeviceOperationAnswer) } },
  'POST /device/device-history': { body: DeviceHistoryBody, response: { 200: Answer(HistoryAnswer) } },
  'POST /device/deploy-device-in-past-date': { body: DeployInPastBody, response: { 201: Answer(DeployRequestFiled) } },
  'GET /admin/deploy-requests': { response: { 200: Answer(DeployRequestsAnswer) } },
  'GET /device/deploy-requests': { querystring: PatientRequestsQuery, response: { 200: Answer(DeployRequestsAnswer) } },
  // The body (an optional note) has no schema: the client sends none (server/devices/routes.ts).
  'POST /admin/deploy-requests/:id/:decision': { params: DeployDecisionParams, response: { 200: Done() } },
  'POST /device/future-allocations': { body: DeviceSerialBody, response: { 200: Answer(FutureAllocationsAnswer) } },
  'POST /device/cancel-future-allocations': { body: DeviceSerialBody, response: { 200: Answer(CancelledAnswer) } },
  'GET /datacenter/getAllRecordingDevicesOfPatients': { response: { 200: Answer(DataCenterAnswer) } },
};

/** Device keys, live states, Device Config and the dashboard layout (issue 15), server/live/routes.ts and config-routes.ts. */
const live = {
  'POST /device/keys/issue': { body: DeviceKeysBody, response: { 201: Answer(IssuedKey) } },
  'POST /device/keys/revoke': { body: DeviceKeysBody, response: { 200: Answer(RevokedKeys) } },
  'POST /device/keys': { body: DeviceKeysBody, response: { 200: Answer(DeviceKeys) } },
  'GET /device/real-time/did=:did': { params: DidParams, querystring: RangeQuery, response: { 200: Answer(Type.Array(RealTimeDevice)) } },
  'GET /device/real-time-validation/did=:did': { params: DidParams, querystring: RangeQuery, response: { 200: Answer(Type.Array(FrameCount)) } },
  'GET /datahub/get_physician_devices_config': { response: { 200: Answer(DevicesConfigAnswer) } },
  'POST /datahub/update_device_config': { body: UpdateDeviceConfigBody, response: { 200: Answer(SavedConfig) } },
  'GET /physician/realtime-layout': { response: { 200: Answer(LayoutAnswer) } },
  'POST /physician/realtime-layout': { body: LayoutBody, response: { 200: Answer(SavedLayout) } },
};

/** The access trail (issue 33 point 8), server/audit/routes.ts. */
const audit = {
  'GET /admin/access-trail': { querystring: AccessTrailQuery, response: { 200: Answer(AccessTrailAnswer) } },
  'GET /admin/access-trail.csv': { querystring: AccessTrailQuery, response: { 200: FileAnswer('text/csv') } },
  'GET /patient/access-log': { querystring: PatientAccessQuery, response: { 200: Answer(AccessLogAnswer) } },
};

/** The report service (issue 17 point 1): a request is queued (202) and followed until its PDF is ready, server/reports/routes.ts. */
const reports = {
  'POST /reports': { body: NewReportBody, response: { 202: Answer(ReportJob) } },
  'GET /reports': { querystring: ReportsQuery, response: { 200: Answer(Type.Array(ReportJob)) } },
  'GET /reports/:id': { params: ReportIdParams, response: { 200: Answer(ReportJob) } },
  'POST /reports/:id/retry': { params: ReportIdParams, response: { 202: Answer(ReportJob) } },
  'GET /reports/:id/file': { params: ReportIdParams, response: { 200: FileAnswer('application/pdf') } },
};

export const devicesEndpoints = { ...allocation, ...live, ...audit, ...reports };
