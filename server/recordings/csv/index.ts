/** CSV import (oximeter, Timestamp,Value) and the data-point export: the public face of this folder. */
export { readOximeterCsv, type OximeterCsvOptions } from './oximeter';
export { readTimestampValueCsv, type TimestampValueCsvOptions } from './timestamp-value';
export { dataPointFileName, parseDataPointFileName, writeDataPointCsv, type DataPointCsvOptions, type DataPointFileNameParts } from './data-points';
