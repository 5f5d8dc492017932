// Generated from openapi/portal.yaml by `npm run gen:api` (scripts/gen-api.ts): do not edit.
export interface paths {
    "/auth/client": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign a client user in by company short name, user ID and password. */
        post: operations["loginClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/vendor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign a vendor user in by user ID and password. */
        post: operations["loginVendor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/client-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign a client user in by a one-time link. */
        post: operations["linkLoginClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth/vendor-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign a vendor user in by a one-time link. */
        post: operations["linkLoginVendor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/web/{site}/mfa/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Generate a new one-time code and e-mail it to the user. */
        post: operations["generateMfaCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/web/{site}/mfa/validate/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check a one-time code; the first element's text is `Passed` on success. */
        post: operations["validateMfaCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/web/reset-pwd": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** E-mail reset instructions when an account matches; the answer never says whether one did. */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/web/{audience}/password/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check the signed-in user's current password. */
        post: operations["testPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/web/{audience}/password/change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set the signed-in user's new password. */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/web/track": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record a page visit of the signed-in user. */
        post: operations["trackPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/web/{site}/user-info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's permissions. */
        get: operations["getUserInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pdfs/{fileName}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the portal's PDF documents. */
        get: operations["getPdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /** Whether one of the portal's PDF documents is there, without its bytes (the portal's readiness probe). */
        head: operations["headPdf"];
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description The audience's path segment, lowercased.
         * @enum {string}
         */
        Site: "client" | "vendor";
        /**
         * @description The login messages the portal knows (requirements 9, "Login messages"), as the sandbox sends them. A sign-in answer's `message` may be any other string (requirements 4.1: the token decides): the answers name these beside any string.
         * @enum {string}
         */
        LoginMessage: "Success" | "Password Expired" | "Deactivated";
        ClientLoginRequest: {
            shortname: string;
            username: string;
            password: string;
        };
        VendorLoginRequest: {
            username: string;
            password: string;
        };
        /** @description Requirements 3.2 and 7.2: the answer's `token` and `message` are read; every other field is ignored. An empty answer has no token. `null` is no value: a `token` of null is no token, a `message` of null no message. */
        LoginResponse: {
            /** @description Requirements 4.1: the token decides (none, null or empty: "Invalid Login"). A string, because the portal sends it back as `Authorization: Bearer {token}` (requirements 6). */
            token?: string | null;
            /** @description Requirements 4.1: read beside a token only. Then `Deactivated` keeps no token; any other message is held (step 3). A string (or null, no message), compared with the login messages of requirements 9; one the portal does not know opens no section before the permissions call succeeds. Beside no token it is not read, so it may be anything. */
            message?: unknown;
        } & components["schemas"]["MessageBesideToken"];
        /** @description Requirements 4.1 and 4.6, one rule for every sign-in answer (a password's and a link's): beside a token, `message` decides the account's state, so it is a string (or null, no message); another type beside a token is an answer of another shape, a fault that opens nothing. */
        MessageBesideToken: unknown;
        /** @description Requirements 3.2 and 4.6: the answer's `token` is read, and nothing else decides whether a link signs in. `message` and `username` are the portal's own reading (docs/decisions.md): a `username` or `shortname` that is not a string is not told, never a fault; `message` beside a token follows MessageBesideToken. Every other field is ignored. */
        LinkLoginResponse: {
            /** @description Requirements 4.6: no token (none, null or empty) is "Invalid Login". A string, for the bearer of requirements 6. */
            token?: string | null;
            /** @description The account's state, as a password login answers it (requirements 4.1 and 9: compared with the login messages). An upstream that omits it, or sends one the portal does not know, leaves the portal to find it out before it opens a section (SECURITY.md); another type beside a token is a fault (MessageBesideToken). */
            message?: unknown;
            /** @description Whose account the link opened: the Username the change-password form shows (requirements 2.5) and whose sessions the person sees (requirements 11.3). Read when a string; otherwise the account is not named. */
            username?: unknown;
            /** @description For a client's link, the company short name of the account it opened: with `username`, the person whose sessions, activity and budgets the session shares. Read when a string; an answer without it (or without `username`) leaves the session on its own (SECURITY.md). */
            shortname?: unknown;
        } & components["schemas"]["MessageBesideToken"];
        /** @description Requirements 3.2 and 7.2: "an array of objects with a text field"; the first one's text `Passed` means success. Parsed as JSON whatever its label (7.2: "text parsed as JSON"); other fields of each object are ignored. */
        MfaVerdict: {
            text: string;
        }[];
        PasswordResetRequest: {
            /** @description Empty when the active site is not CLIENT. */
            clientShortName: string;
            emailAddress: string;
        };
        PasswordTestRequest: {
            userId: string;
            password: string;
        };
        PasswordChangeRequest: {
            password: string;
        };
        PageVisit: {
            page: string;
        };
        /** @description Requirements 3.3's User info, each field of the type its table gives. The gates of requirements 6 read every field but `loaded`, so each of those is required: a missing one would open or shut a gate by accident. `loaded` is the portal's own (it is set once the answer is read); other fields are ignored. */
        UserInfo: {
            loaded?: boolean;
            viewOnly: boolean;
            isAdmin: boolean;
            /** @description A list of service-code strings (requirements 3.3). */
            clientServices: string[];
            /** @description A list of service-code strings (requirements 3.3). */
            beneServices: string[];
            /** @description Truthy or falsy (requirements 3.3), so of any type: truthy when the client may pay from the invoice cart. */
            paymentTier: unknown;
            /** @description Truthy or falsy (requirements 3.3), so of any type; truthy when the client may send spot wires. */
            spotTier: unknown;
            /** @description A numeric string (requirements 3.3); above 0 opens the VIP pages. */
            vipTier: string;
            /** @description A numeric string (requirements 3.3); above 0 opens the vendor's invoice pages. */
            userTier: string;
        };
        /** @enum {string} */
        PdfFileName: "BankHolidays.pdf" | "ExpiringInvoicesPolicy.pdf" | "VendorLetter.pdf";
        /** @description An answer the portal does not read (requirements 7.2: "answer not read", or only its success counts: generate, the password test and change). Its status is the answer: any body (JSON, text such as "Password changed", none at all as in a 204) is never parsed; the sandbox answers `{"ok": true}`. */
        Acknowledgement: unknown;
        /** @description The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...). */
        ErrorAnswer: {
            /** @description Any non-OK answer's message (requirements 8.1); a string or an array of strings. */
            detail?: unknown;
            /** @description A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings. */
            description?: unknown;
            /** @description A 400's field errors, an object (requirements 8.1: "if an errors object is present, the value of its last entry"); each value a string or an array of strings. */
            errors?: {
                [key: string]: unknown;
            };
        };
    };
    responses: {
        /** @description The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorAnswer"];
            };
        };
        /** @description The token is missing, expired or revoked. */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorAnswer"];
            };
        };
        /** @description No such resource. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorAnswer"];
            };
        };
        /** @description The upstream failed. */
        Failure: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorAnswer"];
            };
        };
    };
    parameters: {
        Site: components["schemas"]["Site"];
        Audience: components["schemas"]["Site"];
        Uuid: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    loginClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClientLoginRequest"];
            };
        };
        responses: {
            /** @description The sign-in answer; no token means the credentials were not accepted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["Failure"];
        };
    };
    loginVendor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VendorLoginRequest"];
            };
        };
        responses: {
            /** @description The sign-in answer; no token means the credentials were not accepted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoginResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["Failure"];
        };
    };
    linkLoginClient: {
        parameters: {
            query: {
                uuid: components["parameters"]["Uuid"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link-login answer; no token means the link was not accepted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkLoginResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["Failure"];
        };
    };
    linkLoginVendor: {
        parameters: {
            query: {
                uuid: components["parameters"]["Uuid"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The link-login answer; no token means the link was not accepted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkLoginResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["Failure"];
        };
    };
    generateMfaCode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                site: components["parameters"]["Site"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A new code was sent; any earlier code is replaced. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Acknowledgement"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["Failure"];
        };
    };
    validateMfaCode: {
        parameters: {
            query?: never;
            header?: {
                /** @description The browser the code comes from, as the portal knows it (a random id it keeps in an HttpOnly cookie, never a value the browser chooses). A passed code is remembered for this device only and passes again silently from it (requirements 4.2); without it, only the code mailed for this sign-in passes, once. */
                "X-Device-Id"?: string;
            };
            path: {
                site: components["parameters"]["Site"];
                /** @description The code as e-mailed, digits only (a code typed with spaces has them removed first). */
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The verdict. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MfaVerdict"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["Failure"];
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordResetRequest"];
            };
        };
        responses: {
            /** @description Accepted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Acknowledgement"];
                };
            };
            400: components["responses"]["BadRequest"];
            500: components["responses"]["Failure"];
        };
    };
    testPassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                audience: components["parameters"]["Audience"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordTestRequest"];
            };
        };
        responses: {
            /** @description The current password is right. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Acknowledgement"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["Failure"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                audience: components["parameters"]["Audience"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChangeRequest"];
            };
        };
        responses: {
            /** @description The password was changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Acknowledgement"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["Failure"];
        };
    };
    trackPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PageVisit"];
            };
        };
        responses: {
            /** @description Recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Acknowledgement"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["Failure"];
        };
    };
    getUserInfo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                site: components["parameters"]["Site"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The permissions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserInfo"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["Failure"];
        };
    };
    getPdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fileName: components["schemas"]["PdfFileName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            404: components["responses"]["NotFound"];
            500: components["responses"]["Failure"];
        };
    };
    headPdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fileName: components["schemas"]["PdfFileName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document is there. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No such document. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}

/** openapi/portal.yaml, every `$ref` resolved. */
export const description: unknown = {
  "openapi": "3.1.0",
  "info": {
    "title": "Payments portal upstream API",
    "version": "1.0.0",
    "description": "The calls the portal makes to the payments provider's API (requirements 7), plus the permissions fetch and the PDF documents. The portal's BFF forwards only the operations declared here; the embedded sandbox implements all of them. What the portal sends is described exactly (its request schemas are strict). What it reads is described only as far as docs/requirements.md reads it: a non-empty answer is parsed as JSON whatever its Content-Type (7.1), an empty one is no body, fields an answer schema does not name are ignored, and every constraint of an answer schema cites the requirement it comes from (docs/decisions.md, \"What the portal reads of each answer\").",
    "license": {
      "name": "Proprietary",
      "identifier": "LicenseRef-Proprietary"
    }
  },
  "servers": [
    {
      "url": "/",
      "description": "The base API address, set at runtime (UPSTREAM_URL); with none set, the portal's embedded sandbox."
    }
  ],
  "security": [
    {
      "bearer": []
    }
  ],
  "tags": [
    {
      "name": "auth",
      "description": "Sign-in by password and by link."
    },
    {
      "name": "mfa",
      "description": "Device verification by a one-time code sent by e-mail."
    },
    {
      "name": "password",
      "description": "Password reset, test and change."
    },
    {
      "name": "portal",
      "description": "Permissions, page tracking and documents."
    }
  ],
  "paths": {
    "/auth/client": {
      "post": {
        "operationId": "loginClient",
        "summary": "Sign a client user in by company short name, user ID and password.",
        "tags": [
          "auth"
        ],
        "security": [],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "shortname",
                  "username",
                  "password"
                ],
                "properties": {
                  "shortname": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 64
                  },
                  "username": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128
                  },
                  "password": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 256
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The sign-in answer; no token means the credentials were not accepted.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "Requirements 3.2 and 7.2: the answer's `token` and `message` are read; every other field is ignored. An empty answer has no token. `null` is no value: a `token` of null is no token, a `message` of null no message.",
                  "type": "object",
                  "properties": {
                    "token": {
                      "description": "Requirements 4.1: the token decides (none, null or empty: \"Invalid Login\"). A string, because the portal sends it back as `Authorization: Bearer {token}` (requirements 6).",
                      "type": [
                        "string",
                        "null"
                      ]
                    },
                    "message": {
                      "description": "Requirements 4.1: read beside a token only. Then `Deactivated` keeps no token; any other message is held (step 3). A string (or null, no message), compared with the login messages of requirements 9; one the portal does not know opens no section before the permissions call succeeds. Beside no token it is not read, so it may be anything."
                    }
                  },
                  "allOf": [
                    {
                      "description": "Requirements 4.1 and 4.6, one rule for every sign-in answer (a password's and a link's): beside a token, `message` decides the account's state, so it is a string (or null, no message); another type beside a token is an answer of another shape, a fault that opens nothing.",
                      "if": {
                        "required": [
                          "token"
                        ],
                        "properties": {
                          "token": {
                            "type": "string",
                            "minLength": 1
                          }
                        }
                      },
                      "then": {
                        "properties": {
                          "message": {
                            "anyOf": [
                              {
                                "description": "The login messages the portal knows (requirements 9, \"Login messages\"), as the sandbox sends them. A sign-in answer's `message` may be any other string (requirements 4.1: the token decides): the answers name these beside any string.",
                                "type": "string",
                                "enum": [
                                  "Success",
                                  "Password Expired",
                                  "Deactivated"
                                ]
                              },
                              {
                                "type": [
                                  "string",
                                  "null"
                                ]
                              }
                            ]
                          }
                        }
                      }
                    }
                  ]
                }
              }
            }
          },
          "400": {
            "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/auth/vendor": {
      "post": {
        "operationId": "loginVendor",
        "summary": "Sign a vendor user in by user ID and password.",
        "tags": [
          "auth"
        ],
        "security": [],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "username",
                  "password"
                ],
                "properties": {
                  "username": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128
                  },
                  "password": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 256
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The sign-in answer; no token means the credentials were not accepted.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "Requirements 3.2 and 7.2: the answer's `token` and `message` are read; every other field is ignored. An empty answer has no token. `null` is no value: a `token` of null is no token, a `message` of null no message.",
                  "type": "object",
                  "properties": {
                    "token": {
                      "description": "Requirements 4.1: the token decides (none, null or empty: \"Invalid Login\"). A string, because the portal sends it back as `Authorization: Bearer {token}` (requirements 6).",
                      "type": [
                        "string",
                        "null"
                      ]
                    },
                    "message": {
                      "description": "Requirements 4.1: read beside a token only. Then `Deactivated` keeps no token; any other message is held (step 3). A string (or null, no message), compared with the login messages of requirements 9; one the portal does not know opens no section before the permissions call succeeds. Beside no token it is not read, so it may be anything."
                    }
                  },
                  "allOf": [
                    {
                      "description": "Requirements 4.1 and 4.6, one rule for every sign-in answer (a password's and a link's): beside a token, `message` decides the account's state, so it is a string (or null, no message); another type beside a token is an answer of another shape, a fault that opens nothing.",
                      "if": {
                        "required": [
                          "token"
                        ],
                        "properties": {
                          "token": {
                            "type": "string",
                            "minLength": 1
                          }
                        }
                      },
                      "then": {
                        "properties": {
                          "message": {
                            "anyOf": [
                              {
                                "description": "The login messages the portal knows (requirements 9, \"Login messages\"), as the sandbox sends them. A sign-in answer's `message` may be any other string (requirements 4.1: the token decides): the answers name these beside any string.",
                                "type": "string",
                                "enum": [
                                  "Success",
                                  "Password Expired",
                                  "Deactivated"
                                ]
                              },
                              {
                                "type": [
                                  "string",
                                  "null"
                                ]
                              }
                            ]
                          }
                        }
                      }
                    }
                  ]
                }
              }
            }
          },
          "400": {
            "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/auth/client-token": {
      "post": {
        "operationId": "linkLoginClient",
        "summary": "Sign a client user in by a one-time link.",
        "tags": [
          "auth"
        ],
        "security": [],
        "parameters": [
          {
            "name": "uuid",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The link-login answer; no token means the link was not accepted.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "Requirements 3.2 and 4.6: the answer's `token` is read, and nothing else decides whether a link signs in. `message` and `username` are the portal's own reading (docs/decisions.md): a `username` or `shortname` that is not a string is not told, never a fault; `message` beside a token follows MessageBesideToken. Every other field is ignored.",
                  "type": "object",
                  "allOf": [
                    {
                      "description": "Requirements 4.1 and 4.6, one rule for every sign-in answer (a password's and a link's): beside a token, `message` decides the account's state, so it is a string (or null, no message); another type beside a token is an answer of another shape, a fault that opens nothing.",
                      "if": {
                        "required": [
                          "token"
                        ],
                        "properties": {
                          "token": {
                            "type": "string",
                            "minLength": 1
                          }
                        }
                      },
                      "then": {
                        "properties": {
                          "message": {
                            "anyOf": [
                              {
                                "description": "The login messages the portal knows (requirements 9, \"Login messages\"), as the sandbox sends them. A sign-in answer's `message` may be any other string (requirements 4.1: the token decides): the answers name these beside any string.",
                                "type": "string",
                                "enum": [
                                  "Success",
                                  "Password Expired",
                                  "Deactivated"
                                ]
                              },
                              {
                                "type": [
                                  "string",
                                  "null"
                                ]
                              }
                            ]
                          }
                        }
                      }
                    }
                  ],
                  "properties": {
                    "token": {
                      "description": "Requirements 4.6: no token (none, null or empty) is \"Invalid Login\". A string, for the bearer of requirements 6.",
                      "type": [
                        "string",
                        "null"
                      ]
                    },
                    "message": {
                      "description": "The account's state, as a password login answers it (requirements 4.1 and 9: compared with the login messages). An upstream that omits it, or sends one the portal does not know, leaves the portal to find it out before it opens a section (SECURITY.md); another type beside a token is a fault (MessageBesideToken)."
                    },
                    "username": {
                      "description": "Whose account the link opened: the Username the change-password form shows (requirements 2.5) and whose sessions the person sees (requirements 11.3). Read when a string; otherwise the account is not named."
                    },
                    "shortname": {
                      "description": "For a client's link, the company short name of the account it opened: with `username`, the person whose sessions, activity and budgets the session shares. Read when a string; an answer without it (or without `username`) leaves the session on its own (SECURITY.md)."
                    }
                  }
                }
              }
            }
          },
          "400": {
            "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/auth/vendor-token": {
      "post": {
        "operationId": "linkLoginVendor",
        "summary": "Sign a vendor user in by a one-time link.",
        "tags": [
          "auth"
        ],
        "security": [],
        "parameters": [
          {
            "name": "uuid",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 128
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The link-login answer; no token means the link was not accepted.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "Requirements 3.2 and 4.6: the answer's `token` is read, and nothing else decides whether a link signs in. `message` and `username` are the portal's own reading (docs/decisions.md): a `username` or `shortname` that is not a string is not told, never a fault; `message` beside a token follows MessageBesideToken. Every other field is ignored.",
                  "type": "object",
                  "allOf": [
                    {
                      "description": "Requirements 4.1 and 4.6, one rule for every sign-in answer (a password's and a link's): beside a token, `message` decides the account's state, so it is a string (or null, no message); another type beside a token is an answer of another shape, a fault that opens nothing.",
                      "if": {
                        "required": [
                          "token"
                        ],
                        "properties": {
                          "token": {
                            "type": "string",
                            "minLength": 1
                          }
                        }
                      },
                      "then": {
                        "properties": {
                          "message": {
                            "anyOf": [
                              {
                                "description": "The login messages the portal knows (requirements 9, \"Login messages\"), as the sandbox sends them. A sign-in answer's `message` may be any other string (requirements 4.1: the token decides): the answers name these beside any string.",
                                "type": "string",
                                "enum": [
                                  "Success",
                                  "Password Expired",
                                  "Deactivated"
                                ]
                              },
                              {
                                "type": [
                                  "string",
                                  "null"
                                ]
                              }
                            ]
                          }
                        }
                      }
                    }
                  ],
                  "properties": {
                    "token": {
                      "description": "Requirements 4.6: no token (none, null or empty) is \"Invalid Login\". A string, for the bearer of requirements 6.",
                      "type": [
                        "string",
                        "null"
                      ]
                    },
                    "message": {
                      "description": "The account's state, as a password login answers it (requirements 4.1 and 9: compared with the login messages). An upstream that omits it, or sends one the portal does not know, leaves the portal to find it out before it opens a section (SECURITY.md); another type beside a token is a fault (MessageBesideToken)."
                    },
                    "username": {
                      "description": "Whose account the link opened: the Username the change-password form shows (requirements 2.5) and whose sessions the person sees (requirements 11.3). Read when a string; otherwise the account is not named."
                    },
                    "shortname": {
                      "description": "For a client's link, the company short name of the account it opened: with `username`, the person whose sessions, activity and budgets the session shares. Read when a string; an answer without it (or without `username`) leaves the session on its own (SECURITY.md)."
                    }
                  }
                }
              }
            }
          },
          "400": {
            "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/web/{site}/mfa/generate": {
      "post": {
        "operationId": "generateMfaCode",
        "summary": "Generate a new one-time code and e-mail it to the user.",
        "tags": [
          "mfa"
        ],
        "parameters": [
          {
            "name": "site",
            "in": "path",
            "required": true,
            "schema": {
              "description": "The audience's path segment, lowercased.",
              "type": "string",
              "enum": [
                "client",
                "vendor"
              ]
            }
          }
        ],
        "responses": {
          "200": {
            "description": "A new code was sent; any earlier code is replaced.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "An answer the portal does not read (requirements 7.2: \"answer not read\", or only its success counts: generate, the password test and change). Its status is the answer: any body (JSON, text such as \"Password changed\", none at all as in a 204) is never parsed; the sandbox answers `{\"ok\": true}`."
                }
              }
            }
          },
          "401": {
            "description": "The token is missing, expired or revoked.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/web/{site}/mfa/validate/{code}": {
      "post": {
        "operationId": "validateMfaCode",
        "summary": "Check a one-time code; the first element's text is `Passed` on success.",
        "tags": [
          "mfa"
        ],
        "parameters": [
          {
            "name": "site",
            "in": "path",
            "required": true,
            "schema": {
              "description": "The audience's path segment, lowercased.",
              "type": "string",
              "enum": [
                "client",
                "vendor"
              ]
            }
          },
          {
            "name": "code",
            "in": "path",
            "required": true,
            "description": "The code as e-mailed, digits only (a code typed with spaces has them removed first).",
            "schema": {
              "type": "string",
              "pattern": "^[0-9]{1,8}$",
              "minLength": 1,
              "maxLength": 8
            }
          },
          {
            "name": "X-Device-Id",
            "in": "header",
            "required": false,
            "description": "The browser the code comes from, as the portal knows it (a random id it keeps in an HttpOnly cookie, never a value the browser chooses). A passed code is remembered for this device only and passes again silently from it (requirements 4.2); without it, only the code mailed for this sign-in passes, once.",
            "schema": {
              "type": "string",
              "pattern": "^[A-Za-z0-9_-]{16,64}$",
              "minLength": 16,
              "maxLength": 64
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The verdict.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "Requirements 3.2 and 7.2: \"an array of objects with a text field\"; the first one's text `Passed` means success. Parsed as JSON whatever its label (7.2: \"text parsed as JSON\"); other fields of each object are ignored.",
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": [
                      "text"
                    ],
                    "properties": {
                      "text": {
                        "type": "string"
                      }
                    }
                  }
                }
              }
            }
          },
          "400": {
            "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "401": {
            "description": "The token is missing, expired or revoked.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/web/reset-pwd": {
      "post": {
        "operationId": "resetPassword",
        "summary": "E-mail reset instructions when an account matches; the answer never says whether one did.",
        "tags": [
          "password"
        ],
        "security": [],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "clientShortName",
                  "emailAddress"
                ],
                "properties": {
                  "clientShortName": {
                    "type": "string",
                    "maxLength": 64,
                    "description": "Empty when the active site is not CLIENT."
                  },
                  "emailAddress": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 254
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Accepted.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "An answer the portal does not read (requirements 7.2: \"answer not read\", or only its success counts: generate, the password test and change). Its status is the answer: any body (JSON, text such as \"Password changed\", none at all as in a 204) is never parsed; the sandbox answers `{\"ok\": true}`."
                }
              }
            }
          },
          "400": {
            "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/web/{audience}/password/test": {
      "post": {
        "operationId": "testPassword",
        "summary": "Check the signed-in user's current password.",
        "tags": [
          "password"
        ],
        "parameters": [
          {
            "name": "audience",
            "in": "path",
            "required": true,
            "schema": {
              "description": "The audience's path segment, lowercased.",
              "type": "string",
              "enum": [
                "client",
                "vendor"
              ]
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "userId",
                  "password"
                ],
                "properties": {
                  "userId": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 128
                  },
                  "password": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 256
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The current password is right.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "An answer the portal does not read (requirements 7.2: \"answer not read\", or only its success counts: generate, the password test and change). Its status is the answer: any body (JSON, text such as \"Password changed\", none at all as in a 204) is never parsed; the sandbox answers `{\"ok\": true}`."
                }
              }
            }
          },
          "400": {
            "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "401": {
            "description": "The token is missing, expired or revoked.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/web/{audience}/password/change": {
      "post": {
        "operationId": "changePassword",
        "summary": "Set the signed-in user's new password.",
        "tags": [
          "password"
        ],
        "parameters": [
          {
            "name": "audience",
            "in": "path",
            "required": true,
            "schema": {
              "description": "The audience's path segment, lowercased.",
              "type": "string",
              "enum": [
                "client",
                "vendor"
              ]
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "password"
                ],
                "properties": {
                  "password": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 256
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The password was changed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "An answer the portal does not read (requirements 7.2: \"answer not read\", or only its success counts: generate, the password test and change). Its status is the answer: any body (JSON, text such as \"Password changed\", none at all as in a 204) is never parsed; the sandbox answers `{\"ok\": true}`."
                }
              }
            }
          },
          "400": {
            "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "401": {
            "description": "The token is missing, expired or revoked.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/web/track": {
      "post": {
        "operationId": "trackPage",
        "summary": "Record a page visit of the signed-in user.",
        "tags": [
          "portal"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "page"
                ],
                "properties": {
                  "page": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 2048
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Recorded.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "An answer the portal does not read (requirements 7.2: \"answer not read\", or only its success counts: generate, the password test and change). Its status is the answer: any body (JSON, text such as \"Password changed\", none at all as in a 204) is never parsed; the sandbox answers `{\"ok\": true}`."
                }
              }
            }
          },
          "400": {
            "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "401": {
            "description": "The token is missing, expired or revoked.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/web/{site}/user-info": {
      "get": {
        "operationId": "getUserInfo",
        "summary": "The signed-in user's permissions.",
        "tags": [
          "portal"
        ],
        "parameters": [
          {
            "name": "site",
            "in": "path",
            "required": true,
            "schema": {
              "description": "The audience's path segment, lowercased.",
              "type": "string",
              "enum": [
                "client",
                "vendor"
              ]
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The permissions.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "Requirements 3.3's User info, each field of the type its table gives. The gates of requirements 6 read every field but `loaded`, so each of those is required: a missing one would open or shut a gate by accident. `loaded` is the portal's own (it is set once the answer is read); other fields are ignored.",
                  "type": "object",
                  "required": [
                    "viewOnly",
                    "isAdmin",
                    "clientServices",
                    "beneServices",
                    "paymentTier",
                    "spotTier",
                    "vipTier",
                    "userTier"
                  ],
                  "properties": {
                    "loaded": {
                      "type": "boolean"
                    },
                    "viewOnly": {
                      "type": "boolean"
                    },
                    "isAdmin": {
                      "type": "boolean"
                    },
                    "clientServices": {
                      "description": "A list of service-code strings (requirements 3.3).",
                      "type": "array",
                      "items": {
                        "type": "string"
                      }
                    },
                    "beneServices": {
                      "description": "A list of service-code strings (requirements 3.3).",
                      "type": "array",
                      "items": {
                        "type": "string"
                      }
                    },
                    "paymentTier": {
                      "description": "Truthy or falsy (requirements 3.3), so of any type: truthy when the client may pay from the invoice cart."
                    },
                    "spotTier": {
                      "description": "Truthy or falsy (requirements 3.3), so of any type; truthy when the client may send spot wires."
                    },
                    "vipTier": {
                      "description": "A numeric string (requirements 3.3); above 0 opens the VIP pages.",
                      "type": "string"
                    },
                    "userTier": {
                      "description": "A numeric string (requirements 3.3); above 0 opens the vendor's invoice pages.",
                      "type": "string"
                    }
                  }
                }
              }
            }
          },
          "401": {
            "description": "The token is missing, expired or revoked.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/pdfs/{fileName}": {
      "get": {
        "operationId": "getPdf",
        "summary": "One of the portal's PDF documents.",
        "tags": [
          "portal"
        ],
        "security": [],
        "parameters": [
          {
            "name": "fileName",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "enum": [
                "BankHolidays.pdf",
                "ExpiringInvoicesPolicy.pdf",
                "VendorLetter.pdf"
              ]
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The document.",
            "content": {
              "application/pdf": {
                "schema": {
                  "type": "string",
                  "contentMediaType": "application/pdf"
                }
              }
            }
          },
          "404": {
            "description": "No such resource.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          },
          "500": {
            "description": "The upstream failed.",
            "content": {
              "application/json": {
                "schema": {
                  "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
                  "type": "object",
                  "properties": {
                    "detail": {
                      "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                    },
                    "description": {
                      "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                    },
                    "errors": {
                      "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                      "type": "object",
                      "additionalProperties": true
                    }
                  }
                }
              }
            }
          }
        }
      },
      "head": {
        "operationId": "headPdf",
        "summary": "Whether one of the portal's PDF documents is there, without its bytes (the portal's readiness probe).",
        "tags": [
          "portal"
        ],
        "security": [],
        "parameters": [
          {
            "name": "fileName",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "enum": [
                "BankHolidays.pdf",
                "ExpiringInvoicesPolicy.pdf",
                "VendorLetter.pdf"
              ]
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The document is there."
          },
          "404": {
            "description": "No such document."
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer"
      }
    },
    "parameters": {
      "Site": {
        "name": "site",
        "in": "path",
        "required": true,
        "schema": {
          "description": "The audience's path segment, lowercased.",
          "type": "string",
          "enum": [
            "client",
            "vendor"
          ]
        }
      },
      "Audience": {
        "name": "audience",
        "in": "path",
        "required": true,
        "schema": {
          "description": "The audience's path segment, lowercased.",
          "type": "string",
          "enum": [
            "client",
            "vendor"
          ]
        }
      },
      "Uuid": {
        "name": "uuid",
        "in": "query",
        "required": true,
        "schema": {
          "type": "string",
          "minLength": 1,
          "maxLength": 128
        }
      }
    },
    "responses": {
      "BadRequest": {
        "description": "The request was not accepted. Requirements 8: the last entry of `errors`, else `description`, else `detail`, as `application/json`, `application/problem+json` or any other label.",
        "content": {
          "application/json": {
            "schema": {
              "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
              "type": "object",
              "properties": {
                "detail": {
                  "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                },
                "description": {
                  "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                },
                "errors": {
                  "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                  "type": "object",
                  "additionalProperties": true
                }
              }
            }
          }
        }
      },
      "Unauthorized": {
        "description": "The token is missing, expired or revoked.",
        "content": {
          "application/json": {
            "schema": {
              "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
              "type": "object",
              "properties": {
                "detail": {
                  "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                },
                "description": {
                  "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                },
                "errors": {
                  "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                  "type": "object",
                  "additionalProperties": true
                }
              }
            }
          }
        }
      },
      "NotFound": {
        "description": "No such resource.",
        "content": {
          "application/json": {
            "schema": {
              "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
              "type": "object",
              "properties": {
                "detail": {
                  "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                },
                "description": {
                  "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                },
                "errors": {
                  "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                  "type": "object",
                  "additionalProperties": true
                }
              }
            }
          }
        }
      },
      "Failure": {
        "description": "The upstream failed.",
        "content": {
          "application/json": {
            "schema": {
              "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
              "type": "object",
              "properties": {
                "detail": {
                  "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
                },
                "description": {
                  "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
                },
                "errors": {
                  "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
                  "type": "object",
                  "additionalProperties": true
                }
              }
            }
          }
        }
      }
    },
    "schemas": {
      "Site": {
        "description": "The audience's path segment, lowercased.",
        "type": "string",
        "enum": [
          "client",
          "vendor"
        ]
      },
      "LoginMessage": {
        "description": "The login messages the portal knows (requirements 9, \"Login messages\"), as the sandbox sends them. A sign-in answer's `message` may be any other string (requirements 4.1: the token decides): the answers name these beside any string.",
        "type": "string",
        "enum": [
          "Success",
          "Password Expired",
          "Deactivated"
        ]
      },
      "ClientLoginRequest": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "shortname",
          "username",
          "password"
        ],
        "properties": {
          "shortname": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64
          },
          "username": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "password": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256
          }
        }
      },
      "VendorLoginRequest": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "username",
          "password"
        ],
        "properties": {
          "username": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "password": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256
          }
        }
      },
      "LoginResponse": {
        "description": "Requirements 3.2 and 7.2: the answer's `token` and `message` are read; every other field is ignored. An empty answer has no token. `null` is no value: a `token` of null is no token, a `message` of null no message.",
        "type": "object",
        "properties": {
          "token": {
            "description": "Requirements 4.1: the token decides (none, null or empty: \"Invalid Login\"). A string, because the portal sends it back as `Authorization: Bearer {token}` (requirements 6).",
            "type": [
              "string",
              "null"
            ]
          },
          "message": {
            "description": "Requirements 4.1: read beside a token only. Then `Deactivated` keeps no token; any other message is held (step 3). A string (or null, no message), compared with the login messages of requirements 9; one the portal does not know opens no section before the permissions call succeeds. Beside no token it is not read, so it may be anything."
          }
        },
        "allOf": [
          {
            "description": "Requirements 4.1 and 4.6, one rule for every sign-in answer (a password's and a link's): beside a token, `message` decides the account's state, so it is a string (or null, no message); another type beside a token is an answer of another shape, a fault that opens nothing.",
            "if": {
              "required": [
                "token"
              ],
              "properties": {
                "token": {
                  "type": "string",
                  "minLength": 1
                }
              }
            },
            "then": {
              "properties": {
                "message": {
                  "anyOf": [
                    {
                      "description": "The login messages the portal knows (requirements 9, \"Login messages\"), as the sandbox sends them. A sign-in answer's `message` may be any other string (requirements 4.1: the token decides): the answers name these beside any string.",
                      "type": "string",
                      "enum": [
                        "Success",
                        "Password Expired",
                        "Deactivated"
                      ]
                    },
                    {
                      "type": [
                        "string",
                        "null"
                      ]
                    }
                  ]
                }
              }
            }
          }
        ]
      },
      "MessageBesideToken": {
        "description": "Requirements 4.1 and 4.6, one rule for every sign-in answer (a password's and a link's): beside a token, `message` decides the account's state, so it is a string (or null, no message); another type beside a token is an answer of another shape, a fault that opens nothing.",
        "if": {
          "required": [
            "token"
          ],
          "properties": {
            "token": {
              "type": "string",
              "minLength": 1
            }
          }
        },
        "then": {
          "properties": {
            "message": {
              "anyOf": [
                {
                  "description": "The login messages the portal knows (requirements 9, \"Login messages\"), as the sandbox sends them. A sign-in answer's `message` may be any other string (requirements 4.1: the token decides): the answers name these beside any string.",
                  "type": "string",
                  "enum": [
                    "Success",
                    "Password Expired",
                    "Deactivated"
                  ]
                },
                {
                  "type": [
                    "string",
                    "null"
                  ]
                }
              ]
            }
          }
        }
      },
      "LinkLoginResponse": {
        "description": "Requirements 3.2 and 4.6: the answer's `token` is read, and nothing else decides whether a link signs in. `message` and `username` are the portal's own reading (docs/decisions.md): a `username` or `shortname` that is not a string is not told, never a fault; `message` beside a token follows MessageBesideToken. Every other field is ignored.",
        "type": "object",
        "allOf": [
          {
            "description": "Requirements 4.1 and 4.6, one rule for every sign-in answer (a password's and a link's): beside a token, `message` decides the account's state, so it is a string (or null, no message); another type beside a token is an answer of another shape, a fault that opens nothing.",
            "if": {
              "required": [
                "token"
              ],
              "properties": {
                "token": {
                  "type": "string",
                  "minLength": 1
                }
              }
            },
            "then": {
              "properties": {
                "message": {
                  "anyOf": [
                    {
                      "description": "The login messages the portal knows (requirements 9, \"Login messages\"), as the sandbox sends them. A sign-in answer's `message` may be any other string (requirements 4.1: the token decides): the answers name these beside any string.",
                      "type": "string",
                      "enum": [
                        "Success",
                        "Password Expired",
                        "Deactivated"
                      ]
                    },
                    {
                      "type": [
                        "string",
                        "null"
                      ]
                    }
                  ]
                }
              }
            }
          }
        ],
        "properties": {
          "token": {
            "description": "Requirements 4.6: no token (none, null or empty) is \"Invalid Login\". A string, for the bearer of requirements 6.",
            "type": [
              "string",
              "null"
            ]
          },
          "message": {
            "description": "The account's state, as a password login answers it (requirements 4.1 and 9: compared with the login messages). An upstream that omits it, or sends one the portal does not know, leaves the portal to find it out before it opens a section (SECURITY.md); another type beside a token is a fault (MessageBesideToken)."
          },
          "username": {
            "description": "Whose account the link opened: the Username the change-password form shows (requirements 2.5) and whose sessions the person sees (requirements 11.3). Read when a string; otherwise the account is not named."
          },
          "shortname": {
            "description": "For a client's link, the company short name of the account it opened: with `username`, the person whose sessions, activity and budgets the session shares. Read when a string; an answer without it (or without `username`) leaves the session on its own (SECURITY.md)."
          }
        }
      },
      "MfaVerdict": {
        "description": "Requirements 3.2 and 7.2: \"an array of objects with a text field\"; the first one's text `Passed` means success. Parsed as JSON whatever its label (7.2: \"text parsed as JSON\"); other fields of each object are ignored.",
        "type": "array",
        "items": {
          "type": "object",
          "required": [
            "text"
          ],
          "properties": {
            "text": {
              "type": "string"
            }
          }
        }
      },
      "PasswordResetRequest": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "clientShortName",
          "emailAddress"
        ],
        "properties": {
          "clientShortName": {
            "type": "string",
            "maxLength": 64,
            "description": "Empty when the active site is not CLIENT."
          },
          "emailAddress": {
            "type": "string",
            "minLength": 1,
            "maxLength": 254
          }
        }
      },
      "PasswordTestRequest": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "userId",
          "password"
        ],
        "properties": {
          "userId": {
            "type": "string",
            "minLength": 1,
            "maxLength": 128
          },
          "password": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256
          }
        }
      },
      "PasswordChangeRequest": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "password"
        ],
        "properties": {
          "password": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256
          }
        }
      },
      "PageVisit": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "page"
        ],
        "properties": {
          "page": {
            "type": "string",
            "minLength": 1,
            "maxLength": 2048
          }
        }
      },
      "UserInfo": {
        "description": "Requirements 3.3's User info, each field of the type its table gives. The gates of requirements 6 read every field but `loaded`, so each of those is required: a missing one would open or shut a gate by accident. `loaded` is the portal's own (it is set once the answer is read); other fields are ignored.",
        "type": "object",
        "required": [
          "viewOnly",
          "isAdmin",
          "clientServices",
          "beneServices",
          "paymentTier",
          "spotTier",
          "vipTier",
          "userTier"
        ],
        "properties": {
          "loaded": {
            "type": "boolean"
          },
          "viewOnly": {
            "type": "boolean"
          },
          "isAdmin": {
            "type": "boolean"
          },
          "clientServices": {
            "description": "A list of service-code strings (requirements 3.3).",
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "beneServices": {
            "description": "A list of service-code strings (requirements 3.3).",
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "paymentTier": {
            "description": "Truthy or falsy (requirements 3.3), so of any type: truthy when the client may pay from the invoice cart."
          },
          "spotTier": {
            "description": "Truthy or falsy (requirements 3.3), so of any type; truthy when the client may send spot wires."
          },
          "vipTier": {
            "description": "A numeric string (requirements 3.3); above 0 opens the VIP pages.",
            "type": "string"
          },
          "userTier": {
            "description": "A numeric string (requirements 3.3); above 0 opens the vendor's invoice pages.",
            "type": "string"
          }
        }
      },
      "PdfFileName": {
        "type": "string",
        "enum": [
          "BankHolidays.pdf",
          "ExpiringInvoicesPolicy.pdf",
          "VendorLetter.pdf"
        ]
      },
      "Acknowledgement": {
        "description": "An answer the portal does not read (requirements 7.2: \"answer not read\", or only its success counts: generate, the password test and change). Its status is the answer: any body (JSON, text such as \"Password changed\", none at all as in a 204) is never parsed; the sandbox answers `{\"ok\": true}`."
      },
      "ErrorAnswer": {
        "description": "The error shapes of requirements 8.1, of any label (`application/json`, `application/problem+json` or another, requirements 7.1). A 401, 403, 404 and 500 are read by their status alone; a body that is not JSON, too large or too late has no fields. The portal reads `detail`, `description` and the last entry of `errors`, each as text when it is a string or an array of strings (whose texts it shows one after another), and ignores every other field (`type`, `title`, `status`, `traceId`, ...).",
        "type": "object",
        "properties": {
          "detail": {
            "description": "Any non-OK answer's message (requirements 8.1); a string or an array of strings."
          },
          "description": {
            "description": "A 400's message when it has no `errors` (requirements 8.1); a string or an array of strings."
          },
          "errors": {
            "description": "A 400's field errors, an object (requirements 8.1: \"if an errors object is present, the value of its last entry\"); each value a string or an array of strings.",
            "type": "object",
            "additionalProperties": true
          }
        }
      }
    }
  }
};
