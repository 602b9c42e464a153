CREATE TABLE "certificate_completions" (
	"document_id" integer NOT NULL,
	"completion_id" integer NOT NULL,
	CONSTRAINT "certificate_completions_document_id_completion_id_pk" PRIMARY KEY("document_id","completion_id")
);
--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "approval_number" text;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "approval_state" text;--> statement-breakpoint
ALTER TABLE "certificate_completions" ADD CONSTRAINT "certificate_completions_document_id_documents_document_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("document_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_completions" ADD CONSTRAINT "certificate_completions_completion_id_completions_completion_id_fk" FOREIGN KEY ("completion_id") REFERENCES "public"."completions"("completion_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_completions_completion_unique" ON "certificate_completions" USING btree ("completion_id");