// The Content-Types the tests send to the portal's one parser (server/plugins/content-type.ts): JSON types with broken
// parameters or spacing, which it refuses with 415 before anything is read, and the well-formed ones it reads as JSON.
// The content-type test sends each; the fuzz test draws from them.

/** A JSON type with broken parameters or spacing, or none at all: the parser refuses each, and so must every route. */
export const malformedContentTypes = [
  "application/json;",
  "application/json;;",
  "application/json ;",
  "application/json;=x",
  "application/json; a=b c",
  "application/json;charset=utf-8;",
  "application/json; charset=",
  'application/json; charset="utf-8',
  "application /json",
  "application/json/x",
  "application/json,text/plain",
  "",
];

/** JSON, whatever the case of its name and the spelling of its parameters. */
export const wellFormedJsonTypes = [
  "application/json",
  "Application/JSON",
  "application/json; charset=utf-8",
  'application/json;charset="UTF-8"',
];
