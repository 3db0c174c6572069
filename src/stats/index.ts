/** Statistics for repeated samples: pass-rate intervals, drift tests, adaptive sampling. */
export { boschlooOneSided } from './boschloo.js';
export { comparePassRates, DEFAULT_ALPHA } from './compare.js';
export { fisherOneSided } from './fisher.js';
export { holmAdjust } from './holm.js';
export { pairedTest } from './paired.js';
export { bernoulli, createRng } from './random.js';
export { type Samples, sumSamples } from './samples.js';
export { nextLook, nextSampleDecision, sampleLooks } from './sequential.js';
export { sequentialDesign } from './sequential-design.js';
export { stratifiedOneSided } from './stratified.js';
export { suiteVerdict } from './suite.js';
export { wilsonInterval } from './wilson.js';
