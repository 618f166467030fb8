-- Run by Spring Boot's SQL initialization at startup (SpringBootDataSourceTest): only for a database it takes for an
-- embedded one, which a MacroDB cluster of in-memory engines must be.
CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20));
INSERT INTO item VALUES (1, 'one');
