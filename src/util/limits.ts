/** Suites and configs are hand-written; anything bigger is a mistake or an attack. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/**
 * Upper bound on alias expansions per document, so a "billion laughs" file cannot
 * exhaust memory. Hand-written suites use a handful.
 */
export const MAX_ALIAS_COUNT = 100;
