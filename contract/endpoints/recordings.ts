/** The routes of this part of the API and their schemas (contract/api.ts): nights, their files in and out, annotations and categories. */
import { Type } from '@sinclair/typebox';
import { Answer, Done, FileAnswer } from '../answers';
import { AvailableNightsAnswer, AvailableNightsQuery, ChannelDataQuery, ChannelOverviewQuery } from '../recordings';
import { LabelMapAnswer, LabelMapBody, UploadAnswer, UploadLimits } from '../imports';
import { DataPointsQuery, NightFileQuery } from '../exports';
import { NightFileParams, NightMetaAnswer, NightMetaQuery, NightRangeAnswer, NightRangeQuery, SignedLinkQuery } from '../night-files';
import {
  AddAnnotationsBody,
  AddCategoryBody,
  AddedAnnotations,
  AnnotationColumns,
  AnnotationColumnsBody,
  AnnotationPage,
  CategoryList,
  DeleteAnnotationsBody,
  DeleteCategoryBody,
  DeletedAnnotations,
  ListAnnotationsBody,
  ListCategoriesBody,
  SavedAnnotation,
  SavedCategory,
  UpdateAnnotationBody,
  UpdateCategoryBody,
} from '../annotations';
import { ScoringExportQuery, ScoringImportAnswer, ScoringImportBody } from '../scoring-files';

/** The engine's binary channel data and overviews (NCV1 buffers, gzip when asked). */
const Binary = FileAnswer('application/octet-stream');

export const recordingsEndpoints = {
  // Nights and the engine's channel data (server/recordings/routes.ts).
  'GET /patient/available-nights': { querystring: AvailableNightsQuery, response: { 200: Answer(AvailableNightsAnswer) } },
  'GET /analytics/patient/channel-data': { querystring: ChannelDataQuery, response: { 200: Binary } },
  'GET /analytics/patient/channel-overview': { querystring: ChannelOverviewQuery, response: { 200: Binary } },

  // Downloads (server/recordings/export-routes.ts): EDF+ (or BDF+), CSV.
  'GET /analytics/patient/export-edf': { querystring: NightFileQuery, response: { 200: FileAnswer('application/octet-stream') } },
  'GET /analytics/patient/annotations-csv': { querystring: NightFileQuery, response: { 200: FileAnswer('text/csv') } },
  'GET /analytics/patient/data-points': { querystring: DataPointsQuery, response: { 200: FileAnswer('text/csv') } },

  // Imports (server/recordings/import-routes.ts): the upload is a multipart form, its fields checked by the route.
  'POST /patient/upload-recording': { response: { 201: Answer(UploadAnswer) } },
  'GET /recordings/upload-limits': { response: { 200: Answer(UploadLimits) } },
  'GET /recordings/label-map': { response: { 200: Answer(LabelMapAnswer) } },
  'POST /recordings/label-map': { body: LabelMapBody, response: { 200: Answer(LabelMapAnswer) } },

  // The spec's night file (server/recordings/night-file-routes.ts): the file is JSON text written as it is read, not an envelope.
  'GET /s3/analytics/patient': { querystring: NightMetaQuery, response: { 200: Answer(NightMetaAnswer) } },
  'GET /s3/analytics/patient/range': { querystring: NightRangeQuery, response: { 200: Answer(NightRangeAnswer) } },
  'GET /s3/analytics/night-file/:id': { params: NightFileParams, querystring: SignedLinkQuery, response: { 200: FileAnswer('application/json') } },

  // Annotations (server/annotations/routes.ts).
  'POST /analytics/patient/get-annotations': { body: ListAnnotationsBody, response: { 200: Answer(AnnotationPage, { status: Type.Literal('success') }) } },
  'POST /analytics/patient/get-annotation-columns': { body: AnnotationColumnsBody, response: { 200: Answer(AnnotationColumns, { status: Type.Literal('success') }) } },
  'POST /analytics/patient/new-annotations': { body: AddAnnotationsBody, response: { 201: Answer(AddedAnnotations) } },
  'POST /analytics/patient/update-annotations': { body: UpdateAnnotationBody, response: { 200: Answer(SavedAnnotation) } },
  'POST /analytics/patient/delete-annotations': { body: DeleteAnnotationsBody, response: { 200: Answer(DeletedAnnotations) } },

  // Categories (server/annotations/category-routes.ts).
  'POST /patient/get-label-list': { body: ListCategoriesBody, response: { 200: Answer(CategoryList) } },
  'POST /patient/add-label': { body: AddCategoryBody, response: { 201: Answer(SavedCategory) } },
  'POST /patient/update-label': { body: UpdateCategoryBody, response: { 200: Answer(SavedCategory) } },
  'POST /patient/delete-label': { body: DeleteCategoryBody, response: { 200: Done() } },

  // Scoring files (server/annotations/scoring-file-routes.ts): NSRR XML and EDF+ annotations out, either in.
  'GET /analytics/patient/export-nsrr-xml': { querystring: ScoringExportQuery, response: { 200: FileAnswer('application/xml') } },
  'GET /analytics/patient/export-edf-annotations': { querystring: ScoringExportQuery, response: { 200: FileAnswer('application/octet-stream') } },
  'POST /analytics/patient/import-scoring': { body: ScoringImportBody, response: { 201: Answer(ScoringImportAnswer) } },
};
