/** Statistics for repeated samples: pass-rate intervals, drift tests, adaptive sampling. */
export { boschlooOneSided, type ExactTest } from './boschloo.js';
export { type CompareOptions, comparePassRates, DEFAULT_ALPHA, type RateComparison } from './compare.js';
export { fisherOneSided } from './fisher.js';
export { holmAdjust } from './holm.js';
export { type PairedCase, type PairedMethod, type PairedTest, pairedTest } from './paired.js';
export { bernoulli, createRng } from './random.js';
export { passRate, type Samples, sumSamples } from './samples.js';
export {
  nextLook,
  nextSampleDecision,
  type SampleDecision,
  sampleLooks,
  type SamplingOptions,
} from './sequential.js';
export { type SequentialDesign, sequentialDesign } from './sequential-design.js';
export { stratifiedOneSided } from './stratified.js';
export { type CaseVerdict, type SuiteVerdict, suiteVerdict } from './suite.js';
export { type RateInterval, wilsonInterval } from './wilson.js';
