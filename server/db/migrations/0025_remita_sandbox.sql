CREATE TABLE "remita_sandbox_faults" (
	"id" integer PRIMARY KEY NOT NULL,
	"error_share" double precision DEFAULT 0 NOT NULL,
	"timeout_share" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "remita_sandbox_faults_one_row" CHECK ("remita_sandbox_faults"."id" = 1),
	CONSTRAINT "remita_sandbox_faults_shares" CHECK ("remita_sandbox_faults"."error_share" between 0 and 1 and "remita_sandbox_faults"."timeout_share" between 0 and 1 and "remita_sandbox_faults"."error_share" + "remita_sandbox_faults"."timeout_share" <= 1)
);
--> statement-breakpoint
CREATE TABLE "remita_sandbox_invoices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "remita_sandbox_invoices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"rrr" text NOT NULL,
	"merchant_id" text NOT NULL,
	"service_type_id" text NOT NULL,
	"order_id" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"payer_name" text NOT NULL,
	"payer_email" text NOT NULL,
	"payer_phone" text NOT NULL,
	"description" text NOT NULL,
	"line_items" jsonb,
	"custom_fields" jsonb,
	"status" text NOT NULL,
	"channel" text,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"response_url" text,
	"arrives_at" timestamp with time zone,
	"arrival_channel" text,
	"arrival_notifies" boolean,
	CONSTRAINT "remita_sandbox_invoices_rrr_unique" UNIQUE("rrr"),
	CONSTRAINT "remita_sandbox_invoices_order" UNIQUE("merchant_id","order_id"),
	CONSTRAINT "remita_sandbox_invoices_status" CHECK ("remita_sandbox_invoices"."status" in ('pending', 'paid', 'failed', 'cancelled')),
	CONSTRAINT "remita_sandbox_invoices_channel" CHECK ("remita_sandbox_invoices"."channel" is null or "remita_sandbox_invoices"."channel" in ('CARDPAYMENT', 'BRANCH')),
	CONSTRAINT "remita_sandbox_invoices_arrival_channel" CHECK ("remita_sandbox_invoices"."arrival_channel" is null or "remita_sandbox_invoices"."arrival_channel" in ('CARDPAYMENT', 'BRANCH'))
);
--> statement-breakpoint
CREATE INDEX "remita_sandbox_invoices_arrivals" ON "remita_sandbox_invoices" USING btree ("arrives_at") WHERE "remita_sandbox_invoices"."arrives_at" is not null;