/** The message of anything thrown: an Error's own message, anything else as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Anything thrown as an Error (a thrown string becomes the message). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** The message with the error's name in front unless it is a plain Error ("QuotaExceededError: …"). */
export function namedErrorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.name === 'Error' ? error.message : `${error.name}: ${error.message}`;
}
