SELECT 'abc
FROM t /* x