SELECT :a;
  
