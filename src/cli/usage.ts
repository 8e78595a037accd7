/** The help text, with the exit codes (docs/cli.md says the same). */

export const EXIT = {
  /** Done. */
  OK: 0,
  /** A tap was refused, an entry failed or is held, an order is not on the terminal, or doctor found a problem. */
  REFUSED: 1,
  /** Bad arguments. */
  USAGE: 2,
  /** Configuration or credentials missing or rejected. */
  CONFIG: 3,
  /** The order service could not be reached, or the drain timed out with taps still waiting. */
  UNREACHABLE: 4,
  /** The data file cannot be used. */
  DATA_FILE: 5,
  /** The disk holding the data file is full (it could not be opened, a tap was not saved), or the file stopped taking writes while working. */
  STORAGE: 6,
  /** The token server's or order service's certificate is not trusted (self-signed, expired, another name). */
  CERTIFICATE: 7,
  /** The store hub refused or could not be reached (wrong or old join code, another certificate, no TLS, not running), or could not be made. */
  HUB: 8,
  /** claim, release: another counter holds the order's claim. */
  CLAIMED: 9,
} as const;

export const USAGE = `packdesk: look after a Packdesk terminal's outbox from a shell (support staff, tests).

Usage:
  packdesk enqueue fulfilment ORDER_ID FULFILMENT_ID STATE   STATE: PACKING, PACKED, OUT_FOR_DELIVERY, DELIVERED
  packdesk enqueue units ORDER_ID ITEM_ID UNITS REASON
  packdesk enqueue order-state ORDER_ID STATE [REASON]       STATE: ACCEPTED, IN_PROGRESS, COMPLETED, CANCELLED
  packdesk enqueue invoice ORDER_ID SELLER_INVOICE_ID
      Queues one tap; prints its entry id and requestId. --no-undo sends it without the 5 s undo window.
  packdesk outbox [--json] [--all] [--limit N]               Waiting and failed taps (--all: sent and discarded too)
  packdesk retry ENTRY_ID                                   Send a failed tap again (or a waiting one now)
  packdesk discard ENTRY_ID                                 Give up on a failed or waiting tap
  packdesk drain [--until-empty] [--timeout SECONDS]        Send what is due (default timeout 60 s)
  packdesk orders [--json]                                  Orders on this terminal
  packdesk order ORDER_ID [--json]                          One order, as the packer sees it
  packdesk doctor                                           Checks, one line each, with what to do
  packdesk intake --once [--json]                           One full pass of order intake from the stored cursor:
                                                            new/updated/unchanged/failed counts, ids still to fetch
  packdesk fetch ORDER_ID [--json]                          One status call for an order; stored and printed
  packdesk hub create [--listen HOST:PORT] [--name NAME] [--json]
                                                            Make this PC the store hub (default 0.0.0.0:4222); the join
                                                            code is the last line
  packdesk hub join CODE [--name NAME] [--json]             Join this counter to the hub the code names (default name:
                                                            the next free "Counter N")
  packdesk hub leave [--json]                               Leave the hub (on the hub PC: stop being the hub)
  packdesk hub status [--json]                              Role, whether the hub answers, the hub program's health
  packdesk run [--json]                                     A headless counter until SIGTERM/SIGINT: the hub program on the
                                                            hub PC, the hub session, intake, sending; one line per change
                                                            of the hub's mode and of who takes in orders
  packdesk claim ORDER_ID [--json]                          Claim an order for this counter (exit 9: another counter has it)
  packdesk release ORDER_ID [--json]                        End this counter's claim on an order (exit 9: another has it)

Configuration (flag, else environment variable):
  --data-dir DIR        PACKDESK_DATA_DIR        the terminal's data folder: the app's (environments/<env>/packdesk.sqlite
                                                 is used, never a new file) or one holding packdesk.sqlite
  --auth-url URL        PACKDESK_AUTH_URL        token server address
  --base-url URL        PACKDESK_BASE_URL        order service address
  --environment NAME    PACKDESK_ENVIRONMENT     training, staging or production (keychain entry, the app's environment
                                                 folder; default: the app's settings', else production)
  --terminal-id ID      PACKDESK_TERMINAL_ID     name in the audit log (default cli-<hostname>)
  --service-provider-id ID
                        PACKDESK_SERVICE_PROVIDER_ID  the store's service provider id (needed by intake)
                        PACKDESK_CLIENT_ID, PACKDESK_CLIENT_SECRET
                            credentials; when either is set they are used instead of the OS keychain
  --verbose             log lines (redacted) on stderr
                        PACKDESK_NATS_SERVER     hub: the nats-server program to run (default: the installed one)

Exit codes:
  0  done
  1  refused or failed: a tap was refused, an entry failed or is held, no such order/entry, doctor found a problem;
     intake: orders listed but still to fetch, or changes gave pages without end; or the command stopped before
     it finished (said on stderr)
  2  bad arguments (this text is printed)
  3  configuration or credentials missing or rejected; intake: no access to changes/status, or no provider id
  4  the order service could not be reached, or the drain timed out with taps still waiting;
     intake: the pass stopped (unreachable, 429/5xx); the next run resumes at the page it stopped at
  5  the data file cannot be used
  6  the disk holding the data file is full (it could not be opened, or a tap not saved), or the data file stopped
     taking writes during the command: free disk space, then run it again (drain: each tap is checked or resent)
  7  intake, fetch, drain: the token server's or order service's certificate is not trusted (self-signed,
     expired, issued for another address): not a network fault; check the address
  8  hub: the store hub refused this counter or cannot be reached (wrong or old join code, another certificate,
     no TLS, not running), or the hub could not be made (nats-server missing, too old to listen on the network);
     claim, release: this PC is not part of a hub, or the hub cannot be reached (nothing was changed)
  9  claim, release: another counter holds the order's claim (its name is printed)
`;
