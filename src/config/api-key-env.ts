const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Says what is wrong with an `api_key_env` value, or null when it is a plausible
 * variable name. Never quotes the value: if it is a pasted key, it must not reach a
 * terminal or CI log.
 */
export function explainApiKeyEnv(value: string): { message: string; hint: string } | null {
  const named =
    'put the key in the environment, name the variable here, e.g. api_key_env: OPENROUTER_API_KEY';
  if (looksLikeKey(value)) {
    return {
      message: 'looks like a key value, not the name of an environment variable (value not shown)',
      hint: named,
    };
  }
  const reference = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(value);
  if (reference) {
    return {
      message: "takes the variable's name, not a reference to it",
      hint: `write api_key_env: ${reference[1]}`,
    };
  }
  if (!ENV_NAME.test(value)) {
    return {
      message:
        'must be the name of an environment variable (letters, digits and _, not starting with a digit)',
      hint: named,
    };
  }
  return null;
}

function looksLikeKey(value: string): boolean {
  if (/^sk[-_]/i.test(value)) return true;
  if (value.length >= 16 && /[-.]/.test(value) && /\d/.test(value)) return true;
  // Variable names are words joined by _, keys are long runs of mixed-case letters and digits.
  return (
    value.length >= 24 &&
    !value.includes('_') &&
    /[a-z]/.test(value) &&
    /[A-Z]/.test(value) &&
    /\d/.test(value)
  );
}
