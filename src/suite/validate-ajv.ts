import type { ValidateFunction } from 'ajv';
import { shippedValidator } from '../yaml/schemas.js';

/** The compiled `schemas/suite.schema.json` validator, compiled once per process on first use. */
export function suiteValidator(): ValidateFunction {
  return shippedValidator('suite');
}
