CREATE TABLE "paystack_sandbox_customers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "paystack_sandbox_customers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"code" text NOT NULL,
	CONSTRAINT "paystack_sandbox_customers_email_unique" UNIQUE("email"),
	CONSTRAINT "paystack_sandbox_customers_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "paystack_sandbox_refunds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "paystack_sandbox_refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"transaction_id" integer NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"merchant_note" text NOT NULL,
	"customer_note" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "paystack_sandbox_refunds_status" CHECK ("paystack_sandbox_refunds"."status" in ('pending', 'processed', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "paystack_sandbox_transactions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "paystack_sandbox_transactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"reference" text NOT NULL,
	"access_code" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"currency" text NOT NULL,
	"email" text NOT NULL,
	"callback_url" text,
	"metadata" jsonb NOT NULL,
	"status" text NOT NULL,
	"gateway_response" text NOT NULL,
	"channel" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"customer_id" integer NOT NULL,
	"authorization_code" text,
	"paid_amount_kobo" bigint,
	"refunded_kobo" bigint DEFAULT 0 NOT NULL,
	"account_number" text,
	"account_expires_at" timestamp with time zone,
	"ussd_code" text,
	CONSTRAINT "paystack_sandbox_transactions_reference_unique" UNIQUE("reference"),
	CONSTRAINT "paystack_sandbox_transactions_accessCode_unique" UNIQUE("access_code"),
	CONSTRAINT "paystack_sandbox_transactions_status" CHECK ("paystack_sandbox_transactions"."status" in ('abandoned', 'pending', 'success', 'failed', 'reversed')),
	CONSTRAINT "paystack_sandbox_transactions_channel" CHECK ("paystack_sandbox_transactions"."channel" in ('card', 'bank_transfer', 'ussd')),
	CONSTRAINT "paystack_sandbox_transactions_refunds_within_amount" CHECK ("paystack_sandbox_transactions"."refunded_kobo" between 0 and "paystack_sandbox_transactions"."amount_kobo")
);
--> statement-breakpoint
ALTER TABLE "paystack_sandbox_refunds" ADD CONSTRAINT "paystack_sandbox_refunds_transaction_id_paystack_sandbox_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."paystack_sandbox_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paystack_sandbox_transactions" ADD CONSTRAINT "paystack_sandbox_transactions_customer_id_paystack_sandbox_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."paystack_sandbox_customers"("id") ON DELETE no action ON UPDATE no action;