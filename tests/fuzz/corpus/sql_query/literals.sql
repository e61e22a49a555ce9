SELECT ':not', "also :not", `col:x`, 'it''s', 'a\'b', x::int -- :comment
# :hash ?
/* :block ? */ FROM t WHERE a = :a
