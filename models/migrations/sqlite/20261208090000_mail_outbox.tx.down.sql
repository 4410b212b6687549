DROP TABLE mail_messages;
