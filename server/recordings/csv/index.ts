/** CSV import (oximeter, Timestamp,Value) and the data-point export: the public face of this folder. */
export { dataPointFileName } from './data-points';
