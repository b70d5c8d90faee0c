import { describe, expect, it } from "vitest";
import { DEVELOPMENT_SLIP_SIGNING_KEY, readServerEnv, s3SettingsOf } from "./env.ts";
import { PUBLIC_SANDBOX_KEY } from "./paystack/secret-key.ts";

const production = {
  NODE_ENV: "production",
  SLIP_SIGNING_SECRET: "s".repeat(32),
  SMTP_URL: "smtp://mail.college.test:587",
  SMS_PROVIDER: "africastalking",
  SMS_USERNAME: "college",
  SMS_API_KEY: "at-key-0123",
  SMS_CALLBACK_SECRET: "c".repeat(32),
};

describe("readServerEnv without NODE_ENV (decision 123)", () => {
  it("runs as production, refusing to start on the development stand-ins", () => {
    expect(() => readServerEnv({})).toThrow(
      [
        "Invalid configuration:",
        "  - PAYSTACK_SECRET_KEY: required in production (or set ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION=true)",
        "  - SLIP_SIGNING_SECRET: required in production",
        "  - SMTP_URL: required in production (or set ALLOW_OUTBOX_IN_PRODUCTION=true)",
        "  - SMS_PROVIDER: required in production (or set ALLOW_SMS_OUTBOX_IN_PRODUCTION=true)",
      ].join("\n"),
    );
    expect(
      readServerEnv({ ...production, NODE_ENV: undefined, PAYSTACK_SECRET_KEY: "sk_live_0123" })
        .NODE_ENV,
    ).toBe("production");
  });

  it.each(["development", "test"])(
    "starts without secrets only when NODE_ENV says %s",
    (nodeEnv) => {
      expect(readServerEnv({ NODE_ENV: nodeEnv }).NODE_ENV).toBe(nodeEnv);
    },
  );

  it("refuses a NODE_ENV it does not know instead of guessing", () => {
    expect(() => readServerEnv({ NODE_ENV: "prod" })).toThrow("NODE_ENV:");
  });
});

describe("readServerEnv's secrets", () => {
  const live = { ...production, PAYSTACK_SECRET_KEY: "sk_live_0123" };

  it("refuses the development slip-signing key in production", () => {
    expect(() =>
      readServerEnv({ ...live, SLIP_SIGNING_SECRET: DEVELOPMENT_SLIP_SIGNING_KEY }),
    ).toThrow("SLIP_SIGNING_SECRET: the development key is public; choose 32+ random characters");
  });

  it.each([
    ["SLIP_SIGNING_SECRET", ""],
    ["SLIP_SIGNING_SECRET", "s".repeat(31)],
    ["PROXY_SHARED_SECRET", ""],
    ["PROXY_SHARED_SECRET", "p".repeat(31)],
  ])("refuses %s=%j, in production and out of it", (name, value) => {
    expect(() => readServerEnv({ ...live, [name]: value })).toThrow(
      `${name}: Use at least 32 random characters.`,
    );
    expect(() => readServerEnv({ NODE_ENV: "development", [name]: value })).toThrow(
      `${name}: Use at least 32 random characters.`,
    );
  });

  it("takes a proxy secret of 32 characters or more", () => {
    expect(
      readServerEnv({ ...live, PROXY_SHARED_SECRET: "p".repeat(32) }).PROXY_SHARED_SECRET,
    ).toBe("p".repeat(32));
  });
});

describe("readServerEnv in production", () => {
  it("starts with a real Paystack key", () => {
    expect(
      readServerEnv({ ...production, PAYSTACK_SECRET_KEY: "sk_live_0123" }).PAYSTACK_SECRET_KEY,
    ).toBe("sk_live_0123");
  });

  it("starts with the sandbox only when it is allowed", () => {
    expect(() => readServerEnv(production)).toThrow(/PAYSTACK_SECRET_KEY: required in production/);
    const env = readServerEnv({ ...production, ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION: "true" });
    expect(env.ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION).toBe(true);
  });

  it.each(["false", "true"])(
    "refuses the sandbox's public key as PAYSTACK_SECRET_KEY (sandbox allowed: %s)",
    (allowed) => {
      const source = {
        ...production,
        PAYSTACK_SECRET_KEY: PUBLIC_SANDBOX_KEY,
        ALLOW_PAYSTACK_SANDBOX_IN_PRODUCTION: allowed,
      };
      expect(() => readServerEnv(source)).toThrow(
        "PAYSTACK_SECRET_KEY: the local sandbox's public key cannot be used in production",
      );
    },
  );
});

describe("readServerEnv's capacity settings (decision 112)", () => {
  const development = { NODE_ENV: "development" };

  it("takes a number of serving processes and a session cache window", () => {
    const env = readServerEnv({ ...development, WEB_CONCURRENCY: "3", SESSION_CACHE_MS: "0" });
    expect([env.WEB_CONCURRENCY, env.SESSION_CACHE_MS]).toEqual([3, 0]);
    expect(readServerEnv(development).SESSION_CACHE_MS).toBe(2_000);
  });

  it.each([
    ["WEB_CONCURRENCY", "0"],
    ["WEB_CONCURRENCY", "two"],
    ["WEB_CONCURRENCY", "1.5"],
    ["SESSION_CACHE_MS", "-1"],
    ["SESSION_CACHE_MS", "60000"],
  ])("refuses %s=%s, naming it", (name, value) => {
    expect(() => readServerEnv({ ...development, [name]: value })).toThrow(`${name}:`);
  });
});

describe("readServerEnv's second approval of refunds (decision 151)", () => {
  const development = { NODE_ENV: "development" };

  it("waits above ₦50,000 unless told otherwise; 0 or blank are read as they say", () => {
    expect(readServerEnv(development).REFUND_SECOND_APPROVAL_KOBO).toBe(5_000_000);
    expect(
      readServerEnv({ ...development, REFUND_SECOND_APPROVAL_KOBO: "" })
        .REFUND_SECOND_APPROVAL_KOBO,
    ).toBe(5_000_000);
    expect(
      readServerEnv({ ...development, REFUND_SECOND_APPROVAL_KOBO: "0" })
        .REFUND_SECOND_APPROVAL_KOBO,
    ).toBe(0);
    expect(
      readServerEnv({ ...development, REFUND_SECOND_APPROVAL_KOBO: "10000000" })
        .REFUND_SECOND_APPROVAL_KOBO,
    ).toBe(10_000_000);
  });

  it.each(["-1", "50,000", "₦50000", "500.5", "2000000000"])(
    "refuses REFUND_SECOND_APPROVAL_KOBO=%s, naming it",
    (value) => {
      expect(() => readServerEnv({ ...development, REFUND_SECOND_APPROVAL_KOBO: value })).toThrow(
        "REFUND_SECOND_APPROVAL_KOBO:",
      );
    },
  );
});

describe("readServerEnv's pace of asking Remita in a reconciliation (decision 190)", () => {
  const development = { NODE_ENV: "development" };

  it("leaves blank settings to the defaults and reads the ones given", () => {
    const blank = readServerEnv({ ...development, REMITA_RECONCILE_PAUSE_MS: "" });
    expect(blank.REMITA_RECONCILE_BATCH_SIZE).toBeUndefined();
    expect(blank.REMITA_RECONCILE_PAUSE_MS).toBeUndefined();
    const given = readServerEnv({
      ...development,
      REMITA_RECONCILE_BATCH_SIZE: "5",
      REMITA_RECONCILE_PAUSE_MS: "0",
      REMITA_RECONCILE_MAX_CHECKS: "3000",
    });
    expect([
      given.REMITA_RECONCILE_BATCH_SIZE,
      given.REMITA_RECONCILE_PAUSE_MS,
      given.REMITA_RECONCILE_MAX_CHECKS,
    ]).toEqual([5, 0, 3000]);
  });

  it.each([
    ["REMITA_RECONCILE_BATCH_SIZE", "0"],
    ["REMITA_RECONCILE_BATCH_SIZE", "ten"],
    ["REMITA_RECONCILE_PAUSE_MS", "-5"],
    ["REMITA_RECONCILE_PAUSE_MS", "0.5"],
    ["REMITA_RECONCILE_MAX_CHECKS", "50000"],
  ])("refuses %s=%s, naming it", (name, value) => {
    expect(() => readServerEnv({ ...development, [name]: value })).toThrow(`${name}:`);
  });
});

describe("readServerEnv's photo store (decision 128)", () => {
  const development = { NODE_ENV: "development" };
  const bucket = {
    S3_BUCKET: "college-files",
    S3_REGION: "eu-west-1",
    S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
    S3_SECRET_ACCESS_KEY: "example-secret",
  };
  const required = (name: string) =>
    `  - ${name}: required to keep photos in S3 (set S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, or no S3_ setting at all)`;

  it("keeps photos in the database when no S3 setting is given, or only empty ones", () => {
    expect(s3SettingsOf(readServerEnv(development))).toBeUndefined();
    expect(
      s3SettingsOf(
        readServerEnv({
          ...development,
          S3_BUCKET: "",
          S3_ENDPOINT: " ",
          S3_FORCE_PATH_STYLE: "false",
        }),
      ),
    ).toBeUndefined();
  });

  it("uses AWS S3 itself with the four settings and no endpoint", () => {
    expect(s3SettingsOf(readServerEnv({ ...development, ...bucket }))).toEqual({
      bucket: "college-files",
      region: "eu-west-1",
      accessKeyId: "AKIAEXAMPLE",
      secretAccessKey: "example-secret",
      forcePathStyle: false,
    });
  });

  it("uses an S3-compatible store at an endpoint, addressed by path", () => {
    const env = readServerEnv({
      ...development,
      ...bucket,
      S3_ENDPOINT: "http://minio.internal:9000",
      S3_FORCE_PATH_STYLE: "true",
    });
    expect(s3SettingsOf(env)).toMatchObject({
      endpoint: "http://minio.internal:9000",
      forcePathStyle: true,
    });
  });

  it.each(Object.keys(bucket))(
    "refuses to start without %s when the other S3 settings are given",
    (missing) => {
      const source = { ...development, ...bucket, [missing]: undefined };
      expect(() => readServerEnv(source)).toThrow(`Invalid configuration:\n${required(missing)}`);
    },
  );

  it.each([
    ["S3_ENDPOINT", "http://minio.internal:9000"],
    ["S3_FORCE_PATH_STYLE", "true"],
    ["S3_BUCKET", "college-files"],
  ])("refuses %s=%s alone, naming everything missing", (name, value) => {
    const missing = Object.keys(bucket).filter((key) => key !== name);
    expect(() => readServerEnv({ ...development, [name]: value })).toThrow(
      `Invalid configuration:\n${missing.map(required).join("\n")}`,
    );
  });

  it("lists a half-configured bucket beside production's own refusals", () => {
    expect(() =>
      readServerEnv({
        ...production,
        PAYSTACK_SECRET_KEY: "sk_live_0123",
        S3_BUCKET: "college-files",
      }),
    ).toThrow(required("S3_REGION"));
  });

  it.each([
    ["S3_BUCKET", "College_Files", "S3_BUCKET: Use the bucket's name"],
    ["S3_BUCKET", "ab", "S3_BUCKET: Use the bucket's name"],
    ["S3_ENDPOINT", "minio.internal:9000", "S3_ENDPOINT: Use an http:// or https:// address."],
    ["S3_ENDPOINT", "ftp://minio.internal", "S3_ENDPOINT: Use an http:// or https:// address."],
    ["S3_ENDPOINT", "not a url", "S3_ENDPOINT:"],
    ["S3_FORCE_PATH_STYLE", "yes", "S3_FORCE_PATH_STYLE:"],
  ])("refuses %s=%j", (name, value, message) => {
    expect(() => readServerEnv({ ...development, ...bucket, [name]: value })).toThrow(message);
  });
});

describe("readServerEnv's payment gateways (decision 188)", () => {
  const development = { NODE_ENV: "development" };

  it.each([
    [undefined, ["paystack"]],
    ["", ["paystack"]],
    ["remita", ["remita"]],
    ["paystack,remita", ["paystack", "remita"]],
    [" Remita , paystack,remita", ["remita", "paystack"]],
  ])("reads PAYMENT_GATEWAYS=%j as %j", (value, gateways) => {
    expect(readServerEnv({ ...development, PAYMENT_GATEWAYS: value }).PAYMENT_GATEWAYS).toEqual(
      gateways,
    );
  });

  it.each(["stripe", "paystack,stripe", ",", "paystack;remita"])(
    "refuses PAYMENT_GATEWAYS=%j, naming the gateways it knows",
    (value) => {
      expect(() => readServerEnv({ ...development, PAYMENT_GATEWAYS: value })).toThrow(
        "PAYMENT_GATEWAYS: Write paystack, remita or several of them, comma-separated",
      );
    },
  );
});

describe("readServerEnv's Remita settings (decision 188)", () => {
  const development = { NODE_ENV: "development" };
  const live = {
    ...production,
    PAYSTACK_SECRET_KEY: "sk_live_0123",
    PAYMENT_GATEWAYS: "paystack,remita",
    REMITA_MERCHANT_ID: "27000001",
    REMITA_API_KEY: "college-remita-key",
    REMITA_SERVICE_TYPE_ID: "50001",
  };

  it("needs nothing outside production: the sandbox stands in", () => {
    const env = readServerEnv(development);
    expect(env.REMITA_API_KEY).toBe("");
    expect(env.REMITA_BASE_URL).toBe("https://login.remita.net");
  });

  it.each([
    ["4430731", { fallback: "4430731", byKind: {} }],
    [
      "school_fee:50001,transcript:50002",
      { fallback: null, byKind: { school_fee: "50001", transcript: "50002" } },
    ],
    ["50001, transcript:50002", { fallback: "50001", byKind: { transcript: "50002" } }],
  ])("reads REMITA_SERVICE_TYPE_ID=%j, one id or one per kind of fee", (value, types) => {
    expect(
      readServerEnv({ ...development, REMITA_SERVICE_TYPE_ID: value }).REMITA_SERVICE_TYPE_ID,
    ).toEqual(types);
  });

  it.each([
    ["abc", '"abc": a service type id is digits'],
    ["hostel:50001", '"hostel" is not a kind of fee'],
    ["50001,50002", "Give only one service type without a kind."],
    ["school_fee:1,school_fee:2", "school_fee is given two service types."],
    [",", "Write a service type id"],
  ])("refuses REMITA_SERVICE_TYPE_ID=%j", (value, message) => {
    expect(() => readServerEnv({ ...development, REMITA_SERVICE_TYPE_ID: value })).toThrow(
      `REMITA_SERVICE_TYPE_ID: ${message}`,
    );
  });

  it("refuses a merchant id that is not digits", () => {
    expect(() => readServerEnv({ ...development, REMITA_MERCHANT_ID: "MERCH-1" })).toThrow(
      "REMITA_MERCHANT_ID: Use the merchant id Remita gave, in digits.",
    );
  });

  it("refuses a key without its merchant and service type, in production and out of it", () => {
    for (const env of [development, production]) {
      const message = (() => {
        try {
          readServerEnv({ ...env, REMITA_API_KEY: "college-remita-key" });
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(message).toContain("  - REMITA_MERCHANT_ID: required with REMITA_API_KEY");
      expect(message).toContain("  - REMITA_SERVICE_TYPE_ID: required with REMITA_API_KEY");
    }
  });

  it("starts in production with a real Remita account", () => {
    const env = readServerEnv(live);
    expect(env.PAYMENT_GATEWAYS).toEqual(["paystack", "remita"]);
    expect(env.REMITA_BASE_URL).toBe("https://login.remita.net");
  });

  it("refuses to offer Remita in production on the sandbox, unless a demo site allows it", () => {
    const {
      REMITA_API_KEY: _key,
      REMITA_MERCHANT_ID: _id,
      REMITA_SERVICE_TYPE_ID: _type,
      ...keyless
    } = live;
    expect(() => readServerEnv(keyless)).toThrow(
      "  - REMITA_API_KEY: required in production when PAYMENT_GATEWAYS offers remita (or set ALLOW_REMITA_SANDBOX_IN_PRODUCTION=true)",
    );
    expect(
      readServerEnv({ ...keyless, ALLOW_REMITA_SANDBOX_IN_PRODUCTION: "true" })
        .ALLOW_REMITA_SANDBOX_IN_PRODUCTION,
    ).toBe(true);
    // Not offered: nothing to refuse, the gateway is only there for old payments.
    expect(readServerEnv({ ...keyless, PAYMENT_GATEWAYS: "paystack" }).REMITA_API_KEY).toBe("");
  });

  it.each([
    ["REMITA_MERCHANT_ID", "2547916", "merchant"],
    ["REMITA_API_KEY", "1946", "key"],
    ["REMITA_SERVICE_TYPE_ID", "4430731", "service type"],
    ["REMITA_SERVICE_TYPE_ID", "50001,transcript:4430731", "service type"],
    ["REMITA_BASE_URL", "https://demo.remita.net", "host"],
    ["REMITA_BASE_URL", "https://remitademo.net", "host"],
    ["REMITA_BASE_URL", "http://www.remitademo.net/", "host"],
  ])(
    "refuses Remita's public demo %s=%s in production, unless a staging site allows it",
    (name, value, what) => {
      expect(() => readServerEnv({ ...live, [name]: value })).toThrow(
        `  - ${name}: Remita's public demo ${what} cannot be used in production (or set ALLOW_REMITA_DEMO_IN_PRODUCTION=true)`,
      );
      expect(() =>
        readServerEnv({ ...live, [name]: value, ALLOW_REMITA_DEMO_IN_PRODUCTION: "true" }),
      ).not.toThrow();
      // Outside production Remita's demo is what it is for.
      expect(() =>
        readServerEnv({ ...live, NODE_ENV: "development", [name]: value }),
      ).not.toThrow();
    },
  );

  it("refuses the demo credentials all together, as a staging site would copy them", () => {
    const demo = {
      ...live,
      REMITA_MERCHANT_ID: "2547916",
      REMITA_API_KEY: "1946",
      REMITA_SERVICE_TYPE_ID: "4430731",
      REMITA_BASE_URL: "https://remitademo.net",
    };
    expect(() => readServerEnv(demo)).toThrow(
      /REMITA_MERCHANT_ID[\s\S]*REMITA_API_KEY[\s\S]*REMITA_SERVICE_TYPE_ID[\s\S]*REMITA_BASE_URL/,
    );
  });

  it.each(["REMITA_SANDBOX_PORT", "REMITA_BASE_URL"])("refuses %s that is not one", (name) => {
    expect(() => readServerEnv({ ...development, [name]: "not one" })).toThrow(`${name}:`);
  });
});

describe("the SMS provider (decision 200)", () => {
  const live = { ...production, PAYSTACK_SECRET_KEY: "sk_live_0123" };

  it("starts production on the SMS outbox only when told to", () => {
    const onOutbox = { ...live, SMS_PROVIDER: undefined };
    expect(() => readServerEnv(onOutbox)).toThrow(
      "  - SMS_PROVIDER: required in production (or set ALLOW_SMS_OUTBOX_IN_PRODUCTION=true)",
    );
    expect(
      readServerEnv({ ...onOutbox, ALLOW_SMS_OUTBOX_IN_PRODUCTION: "true" }).SMS_PROVIDER,
    ).toBeUndefined();
  });

  it("refuses a provider without its username and key, in production and out of it", () => {
    const named = { NODE_ENV: "development", SMS_PROVIDER: "africastalking" };
    expect(() => readServerEnv(named)).toThrow(
      [
        "  - SMS_USERNAME: required with SMS_PROVIDER=africastalking",
        "  - SMS_API_KEY: required with SMS_PROVIDER=africastalking",
      ].join("\n"),
    );
    expect(() => readServerEnv({ ...live, SMS_API_KEY: "" })).toThrow(
      "  - SMS_API_KEY: required with SMS_PROVIDER=africastalking",
    );
  });

  it("refuses production on a provider without the secret its callbacks carry", () => {
    expect(() => readServerEnv({ ...live, SMS_CALLBACK_SECRET: undefined })).toThrow(
      "  - SMS_CALLBACK_SECRET: required in production with SMS_PROVIDER",
    );
    expect(() => readServerEnv({ ...live, SMS_CALLBACK_SECRET: "short" })).toThrow(
      "SMS_CALLBACK_SECRET: Use at least 32 random characters.",
    );
  });

  it("refuses a provider it does not know and a sender id no network would show", () => {
    expect(() => readServerEnv({ NODE_ENV: "development", SMS_PROVIDER: "termii" })).toThrow(
      "SMS_PROVIDER:",
    );
    expect(() => readServerEnv({ ...live, SMS_SENDER_ID: "Crownfield College" })).toThrow(
      "SMS_SENDER_ID: Use the registered sender id: at most 11 letters or digits.",
    );
    expect(readServerEnv({ ...live, SMS_SENDER_ID: "CROWNFIELD" }).SMS_SENDER_ID).toBe(
      "CROWNFIELD",
    );
  });
});

describe("readServerEnv's daily SMS cap (decision 201)", () => {
  const development = { NODE_ENV: "development" };

  it("is unset when blank or absent, and read as a whole number", () => {
    expect(readServerEnv(development).SMS_DAILY_CAP).toBeUndefined();
    expect(readServerEnv({ ...development, SMS_DAILY_CAP: " " }).SMS_DAILY_CAP).toBeUndefined();
    expect(readServerEnv({ ...development, SMS_DAILY_CAP: "2000" }).SMS_DAILY_CAP).toBe(2000);
  });

  it.each(["0", "-5", "1.5", "many"])("refuses SMS_DAILY_CAP=%s, naming it", (value) => {
    expect(() => readServerEnv({ ...development, SMS_DAILY_CAP: value })).toThrow("SMS_DAILY_CAP:");
  });
});
