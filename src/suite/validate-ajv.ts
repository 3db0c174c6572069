import type { ValidateFunction } from 'ajv';
import { shippedValidator } from '../yaml/schemas.js';

/** The compiled `schemas/suite.schema.json` validator, compiled once per process on first use. */
export function suiteValidator(): ValidateFunction {
  return shippedValidator('suite');
}

/** One case of the suite schema (`definitions/case`): cases generated from table rows are held to it. */
export function caseValidator(): ValidateFunction {
  return shippedValidator('case');
}
